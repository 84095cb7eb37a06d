import type { ErrorRequestHandler, RequestHandler, Router } from 'express';

/**
 * One POST route as a plain list of handlers, so that it can be mounted on an Express router and
 * also served by the fast listener (src/http/fast-listener.ts) without Express's routing.
 */
export interface PostEndpoint {
  path: string;
  handlers: RequestHandler[];
  /** What answers an error passed on by `handlers`, in order; the app's handler comes last. */
  errorHandlers: ErrorRequestHandler[];
}

export function mountPost(router: Router, endpoint: PostEndpoint): void {
  router.post(endpoint.path, ...endpoint.handlers);
}

export function mountErrorHandlers(router: Router, endpoint: PostEndpoint): void {
  router.use(endpoint.path, ...endpoint.errorHandlers);
}
