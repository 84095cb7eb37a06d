import type { RequestListener } from 'node:http';
import express, { type Express, type Router } from 'express';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { PlainHandler, PostEndpoint } from './http/endpoint.js';
import { errorHandler, notFound } from './http/errors.js';
import { fastListener } from './http/fast-listener.js';
import { healthRouter } from './http/health.js';
import { requestContext } from './http/request-context.js';
import { replayed, securityHeaders } from './http/security-headers.js';

export interface AppDependencies {
  config: Config;
  /** The readiness probe's write (see checkWritable in src/db/database.ts). */
  checkWritable: () => Promise<void>;
  logger: Logger;
  isShuttingDown: () => boolean;
  /** Times every request for /metrics (src/observability/); absent when metrics are off. */
  observeRequests?: PlainHandler;
  /**
   * The capabilities' routers (GraphQL, OAuth, pages), mounted in this order after the health
   * checks and before the not-found answer; a request walks them in order until one answers.
   */
  routers: Router[];
}

/** Assembles the HTTP application; every route module gets only what it needs. */
export function createHttpApp(deps: AppDependencies): Express {
  return assemble(deps).app;
}

/**
 * The listener of the service's port: the app, with the `fastEndpoints` (also mounted in the
 * routers) served in front of it without Express's routing (src/http/fast-listener.ts).
 */
export function createRequestListener(
  deps: AppDependencies,
  fastEndpoints: readonly PostEndpoint[],
): RequestListener {
  const { app, before, headers } = assemble(deps);
  if (fastEndpoints.length === 0) return app;
  return fastListener({
    app,
    endpoints: fastEndpoints,
    before: [...before, replayed(headers)],
    notFound,
    errorHandler,
  });
}

function assemble(deps: AppDependencies) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  const before = [
    ...(deps.observeRequests ? [deps.observeRequests] : []),
    requestContext(deps.logger),
  ];
  const headers = securityHeaders(deps.config.authUrl);
  app.use(...before, headers);
  app.use(healthRouter(deps.checkWritable, deps.isShuttingDown));
  for (const router of deps.routers) app.use(router);
  app.use(notFound);
  app.use(errorHandler);
  return { app, before, headers };
}
