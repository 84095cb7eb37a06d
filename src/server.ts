import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createHttpApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { noTokensIssuedYet } from './graphql/bearer.js';
import type { ContextFactory } from './graphql/context.js';
import type { BearerAuthenticator } from './graphql/gateway.js';
import { buildSchema } from './graphql/schema.js';
import { createInterviewLoaders } from './interviews/loaders.js';
import { InterviewReadStore } from './interviews/read-store.js';
import { interviewResolvers } from './interviews/resolvers/index.js';
import { AccountStore } from './accounts/account-store.js';
import { AppStore } from './accounts/app-store.js';
import { AuditLog } from './audit/audit-log.js';
import { systemClock, type Clock } from './clock.js';
import { AuthorizationCodes } from './oauth/authorization-codes.js';
import { authorizeRouter } from './oauth/authorize/router.js';
import { SigningKeyStore } from './oauth/signing-keys/signing-key-store.js';
import { SigningKeys } from './oauth/signing-keys/signing-keys.js';
import { resolveKeyEncryptionSecret } from './security/key-encryption-secret.js';
import { RateLimiter } from './security/rate-limiter.js';
import { SecretBox } from './security/secret-box.js';

export interface RunningService {
  server: Server;
  db: Database;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, then closes the pool. */
  stop(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Replaces bearer-token verification; tests use it to act as a given principal. */
  authenticate?: BearerAuthenticator;
  /** Source of time for every service; tests pass a ManualClock to move time. */
  clock?: Clock;
}

/** The composition root: opens the database, applies migrations, wires services, listens. */
export async function startService(options: StartOptions): Promise<RunningService> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const keyEncryptionSecret = resolveKeyEncryptionSecret(config, logger);
  const db = openDatabase(config.database);
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) logger.info({ migrations: applied }, 'applied database migrations');
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const signingKeys = new SigningKeys(
    new SigningKeyStore(db),
    new SecretBox(keyEncryptionSecret, 'signing-keys'),
    clock,
    logger,
  );
  await signingKeys.ensureActiveKeys();
  const audit = new AuditLog(db, clock, logger);
  const accounts = new AccountStore(db);
  const apps = new AppStore(db);
  const codes = new AuthorizationCodes(db, clock);

  const interviewReads = new InterviewReadStore(db);
  const lobbyTokenBox = new SecretBox(keyEncryptionSecret, 'lobby-tokens');
  const createGraphQLContext: ContextFactory = (request) => ({
    ...request,
    loaders: createInterviewLoaders(interviewReads, lobbyTokenBox, config.publicUrl),
  });

  let shuttingDown = false;
  const app = createHttpApp({
    config,
    db,
    logger,
    graphqlSchema: buildSchema(interviewResolvers),
    authenticate: options.authenticate ?? noTokensIssuedYet,
    createGraphQLContext,
    isShuttingDown: () => shuttingDown,
    routers: [
      authorizeRouter({
        config,
        db,
        clock,
        accounts,
        apps,
        codes,
        audit,
        signInLimiter: new RateLimiter(db, 'sign-in', config.rateLimits.signIn),
      }),
    ],
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      shuttingDown = true;
      const forceClose = setTimeout(() => {
        logger.warn('shutdown timeout reached: closing remaining connections');
        server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      forceClose.unref();
      // close() waits for in-flight requests and closes the sockets idle at that moment; a
      // keep-alive socket whose request finishes later is reaped by the interval instead of
      // lingering until its keep-alive timeout.
      const reapIdle = setInterval(() => server.closeIdleConnections(), 50);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearInterval(reapIdle);
      clearTimeout(forceClose);
      await db.destroy();
    })();
    return stopping;
  };
  return { server, db, url, stop };
}
