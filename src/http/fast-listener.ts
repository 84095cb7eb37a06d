import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type {
  ErrorRequestHandler,
  Express,
  NextFunction,
  Request,
  RequestHandler,
  Response,
} from 'express';
import type { PostEndpoint } from './endpoint.js';

export interface FastListenerOptions {
  app: Express;
  /** Served here when a POST asks for exactly their path; every other request goes to `app`. */
  endpoints: readonly PostEndpoint[];
  /**
   * What the app runs before its routers for every request (metrics, request context, security
   * headers), in the app's order; see createHttpApp.
   */
  before: readonly RequestHandler[];
  /** The app's last-resort handlers. */
  notFound: RequestHandler;
  errorHandler: ErrorRequestHandler;
}

type Step = { handle: RequestHandler } | { handleError: ErrorRequestHandler };

interface Chain {
  route: { path: string };
  steps: readonly Step[];
}

/**
 * A `node:http` listener in front of the Express app: a POST to one of the hot endpoints runs
 * the app's own middleware and the endpoint's own handlers, in the order Express would, but
 * without walking every router's routes to find them. The request and response get Express's
 * prototypes, as Express gives them, so every header and body is written the same way.
 */
export function fastListener(options: FastListenerOptions): RequestListener {
  const { app } = options;
  const chains = new Map<string, Chain>();
  for (const endpoint of options.endpoints) {
    chains.set(endpoint.path, {
      // What Express leaves in req.route, read by the metrics' route label.
      route: { path: endpoint.path },
      steps: [
        ...[...options.before, ...endpoint.handlers, options.notFound].map((handle) => ({
          handle,
        })),
        ...[...endpoint.errorHandlers, options.errorHandler].map((handleError) => ({
          handleError,
        })),
      ],
    });
  }
  const expressRequest = app.request as object;
  const expressResponse = app.response as object;
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chain = incoming.method === 'POST' ? chains.get(pathOf(incoming.url!)) : undefined;
    if (!chain) {
      app(incoming, outgoing);
      return;
    }
    // What app.handle and the router do before a route runs.
    const req = Object.setPrototypeOf(incoming, expressRequest) as Request;
    const res = Object.setPrototypeOf(outgoing, expressResponse) as Response;
    req.res = res;
    res.req = req;
    res.locals = Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    req.params = {};
    (req as { route?: unknown }).route = chain.route;
    run(chain.steps, req, res);
  };
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Express's `next`: handlers in turn, and once one passes an error, the error handlers. */
function run(chain: readonly Step[], req: Request, res: Response): void {
  let index = 0;
  const next: NextFunction = (error?: unknown) => {
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
