import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { errorHandler, notFound } from './http/errors.js';
import { healthRouter } from './http/health.js';
import { requestContext } from './http/request-context.js';

export interface AppDependencies {
  config: Config;
  /** The readiness probe's write (see checkWritable in src/db/database.ts). */
  checkWritable: () => Promise<void>;
  logger: Logger;
  isShuttingDown: () => boolean;
  /** Times every request for /metrics (src/observability/); absent when metrics are off. */
  observeRequests?: RequestHandler;
  /**
   * The capabilities' routers (GraphQL, OAuth, pages), mounted in this order after the health
   * checks and before the not-found answer; a request walks them in order until one answers.
   */
  routers: Router[];
}

/** Assembles the HTTP application; every route module gets only what it needs. */
export function createHttpApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  if (deps.observeRequests) app.use(deps.observeRequests);
  app.use(requestContext(deps.logger));
  const https = deps.config.authUrl.startsWith('https:');
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: https,
    }),
  );
  app.use(healthRouter(deps.checkWritable, deps.isShuttingDown));
  for (const router of deps.routers) app.use(router);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
