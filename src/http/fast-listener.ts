import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, RequestHandler } from 'express';
import proxyaddr from 'proxy-addr';
import type {
  PlainErrorHandler,
  PlainHandler,
  PlainNext,
  PlainRequest,
  PostEndpoint,
} from './endpoint.js';
import { pathOf } from './errors.js';

export interface FastListenerOptions {
  app: Express;
  /** Served here when a POST asks for exactly their path; every other request goes to `app`. */
  endpoints: readonly PostEndpoint[];
  /**
   * What the app runs before its routers for every request (metrics, request context, security
   * headers), in the app's order; see createHttpApp. They use node:http's API only.
   */
  before: readonly PlainHandler[];
  /** The app's last-resort handlers. */
  notFound: PlainHandler;
  errorHandler: PlainErrorHandler;
}

type Step = { handle: PlainHandler } | { handleError: PlainErrorHandler };

interface Chain {
  route: { path: string };
  /** Whether the endpoint's handlers need Express's request and response. */
  express: boolean;
  steps: readonly Step[];
}

/**
 * A `node:http` listener in front of the Express app: a POST to one of the hot endpoints runs
 * the app's own middleware and the endpoint's own handlers, in the order Express would, but
 * without walking every router's routes to find them. A plain endpoint (PostEndpoint) gets
 * node:http's request and response with what the app's middleware and Express's routing would
 * have added (`ip`, `originalUrl`, `route`); any other gets Express's prototypes, as Express
 * gives them, so every header and body is written the same way either way.
 */
export function fastListener(options: FastListenerOptions): RequestListener {
  const { app } = options;
  const chains = new Map<string, Chain>();
  for (const endpoint of options.endpoints) {
    chains.set(endpoint.path, {
      // What Express leaves in req.route, read by the metrics' route label.
      route: { path: endpoint.path },
      express: endpoint.plain !== true,
      steps: [
        ...[...options.before, ...(endpoint.handlers as PlainHandler[]), options.notFound].map(
          (handle) => ({ handle }),
        ),
        ...[...(endpoint.errorHandlers as PlainErrorHandler[]), options.errorHandler].map(
          (handleError) => ({ handleError }),
        ),
      ],
    });
  }
  const expressRequest = app.request as object;
  const expressResponse = app.response as object;
  // What Express's req.ip consults: TRUST_PROXY, compiled once by app.set('trust proxy').
  const trustProxy = app.get('trust proxy fn') as Parameters<typeof proxyaddr>[1];
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chain = incoming.method === 'POST' ? chains.get(pathOf(incoming.url!)) : undefined;
    if (!chain) {
      app(incoming, outgoing);
      return;
    }
    const req = incoming as PlainRequest;
    if (chain.express) {
      // What app.handle and the router do before a route runs.
      Object.setPrototypeOf(incoming, expressRequest);
      Object.setPrototypeOf(outgoing, expressResponse);
      const express = req as unknown as Parameters<RequestHandler>[0];
      express.res = outgoing as Parameters<RequestHandler>[1];
      express.res.req = express;
      express.res.locals = Object.create(null) as Parameters<RequestHandler>[1]['locals'];
      express.baseUrl = '';
      express.params = {};
    } else {
      req.ip = proxyaddr(incoming, trustProxy);
    }
    req.originalUrl = incoming.url;
    req.route = chain.route;
    run(chain.steps, req, outgoing);
  };
}

/** Express's `next`: handlers in turn, and once one passes an error, the error handlers. */
function run(chain: readonly Step[], req: PlainRequest, res: ServerResponse): void {
  let index = 0;
  const next: PlainNext = (error?: unknown) => {
    while (index < chain.length) {
      const step = chain[index++]!;
      if (error === undefined || error === null || error === 'route') {
        if ('handle' in step) return invoke(() => step.handle(req, res, next));
      } else if ('handleError' in step) {
        return invoke(() => step.handleError(error, req, res, next));
      }
    }
    // Past the app's own error handler: what Express's final handler does once headers went out.
    if (error !== undefined && error !== null) req.socket.destroy();
  };
  const invoke = (call: () => unknown) => {
    try {
      const result = call();
      if (result instanceof Promise) result.catch((error: unknown) => next(error ?? new Error()));
    } catch (error) {
      next(error);
    }
  };
  next();
}
