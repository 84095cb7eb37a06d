import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlainNext } from '../http/endpoint.js';
import { httpRequestDuration } from './instruments.js';

const STARTED_AT = Symbol('http-metrics.startedAt');

/** What Express (or the fast listener) leaves on a request: the route that answered. */
interface RoutedRequest extends IncomingMessage {
  route?: unknown;
  baseUrl?: string;
}

interface TimedResponse extends ServerResponse<RoutedRequest> {
  [STARTED_AT]?: number;
}

/** Static files are served by a middleware, not a route: they share one label. */
const STATIC_MOUNT = '/assets';

/**
 * Times every response into http_request_duration_seconds. One shared listener per response,
 * the start time on the response itself: nothing else is allocated per request.
 */
export function observeRequests(_req: IncomingMessage, res: ServerResponse, next: PlainNext): void {
  (res as TimedResponse)[STARTED_AT] = performance.now();
  // 'finish' fires once; `on` avoids the wrapper `once` would allocate.
  res.on('finish', recordResponse);
  next();
}

function recordResponse(this: TimedResponse): void {
  const startedAt = this[STARTED_AT];
  if (startedAt === undefined) return;
  httpRequestDuration.observe(
    { method: this.req.method, route: routeLabel(this.req), status_code: this.statusCode },
    (performance.now() - startedAt) / 1000,
  );
}

/**
 * The pattern of the route that answered (`/console/apps/:appId`), never the path itself, so
 * ids and tokens in paths do not become labels. Every router is mounted at the root, so the
 * route's own pattern is the whole one.
 */
function routeLabel(req: RoutedRequest): string {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return path;
  if (req.baseUrl === STATIC_MOUNT) return `${STATIC_MOUNT}/*`;
  return 'unmatched';
}
