import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import type { Logger } from 'pino';

/**
 * The request as a handler written for node:http sees it: what the app's middleware adds
 * (src/http/request-context.ts) and what the fast listener fills in (src/http/fast-listener.ts).
 * Express's Request has all of it, so such a handler also runs on an Express router.
 */
export interface PlainRequest extends IncomingMessage {
  /** Correlation id of this request: echoed as X-Request-Id and on every log line. */
  id: string;
  log: Logger;
  /** The client's address as Express's `req.ip` names it (`trust proxy`). */
  ip?: string;
  /** What a body parser read. */
  body?: unknown;
  originalUrl?: string;
  route?: { path: string };
}

export type PlainNext = (error?: unknown) => void;
export type PlainHandler = (req: PlainRequest, res: ServerResponse, next: PlainNext) => unknown;
/** Four parameters, as Express tells error handlers apart by their arity. */
export type PlainErrorHandler = (
  error: unknown,
  req: PlainRequest,
  res: ServerResponse,
  next: PlainNext,
) => unknown;

/**
 * One POST route as a plain list of handlers, so that it can be mounted on an Express router and
 * also served by the fast listener (src/http/fast-listener.ts) without Express's routing. A
 * `plain` endpoint's handlers use only node:http's request and response (PlainRequest), so the
 * fast listener serves it without giving them Express's prototypes either.
 */
export type PostEndpoint =
  | {
      path: string;
      plain?: false;
      handlers: RequestHandler[];
      /** What answers an error passed on by `handlers`, in order; the app's handler comes last. */
      errorHandlers: ErrorRequestHandler[];
    }
  | {
      path: string;
      plain: true;
      handlers: PlainHandler[];
      errorHandlers: PlainErrorHandler[];
    };

export function mountPost(router: Router, endpoint: PostEndpoint): void {
  router.post(endpoint.path, ...(endpoint.handlers as RequestHandler[]));
}

export function mountErrorHandlers(router: Router, endpoint: PostEndpoint): void {
  router.use(endpoint.path, ...(endpoint.errorHandlers as ErrorRequestHandler[]));
}
