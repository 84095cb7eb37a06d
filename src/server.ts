import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createHttpApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, waitForIdlePool, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { ContextFactory, InterviewServices } from './graphql/context.js';
import type { BearerAuthenticator } from './graphql/gateway.js';
import { buildSchema } from './graphql/schema.js';
import { EventFinder } from './interviews/event-finder.js';
import { EventWriteStore } from './interviews/event-write-store.js';
import { InterviewScheduler } from './interviews/interview-scheduler.js';
import type { InterviewLifecycle } from './interviews/lifecycle/interview-lifecycle.js';
import { InterviewLifecycleService } from './interviews/lifecycle/lifecycle-service.js';
import { archiveDelayMs, settleAt } from './interviews/lifecycle/settle.js';
import { InterviewSweeper, startSweeper } from './interviews/lifecycle/sweeper.js';
import { createInterviewLoaders } from './interviews/loaders.js';
import { InterviewReadStore } from './interviews/read-store.js';
import { interviewResolvers } from './interviews/resolvers/index.js';
import { AccountStore } from './accounts/account-store.js';
import { AppStore } from './accounts/app-store.js';
import { AuditLog } from './audit/audit-log.js';
import { systemClock, type Clock } from './clock.js';
import { consoleRouter } from './console/router.js';
import { lobbyRouter } from './lobby/router.js';
import { AuthorizationCodes } from './oauth/authorization-codes.js';
import { AccountInfoService } from './oauth/account-info/account-info-service.js';
import { accountInfoRouter } from './oauth/account-info/router.js';
import { authorizeRouter } from './oauth/authorize/router.js';
import { ClientAuthenticator } from './oauth/clients/client-authenticator.js';
import { discoveryRouter } from './oauth/discovery/router.js';
import { TokenIntrospection } from './oauth/token/introspection.js';
import { TokenRevocation } from './oauth/token/revocation.js';
import { tokenRouter } from './oauth/token/router.js';
import { TokenService } from './oauth/token/token-service.js';
import { AccessTokenVerifier } from './oauth/tokens/access-token-verifier.js';
import { TokenSigner } from './oauth/tokens/token-signer.js';
import { TokenStore } from './oauth/tokens/token-store.js';
import { SigningKeyStore } from './oauth/signing-keys/signing-key-store.js';
import { SigningKeys } from './oauth/signing-keys/signing-keys.js';
import { resolveKeyEncryptionSecret } from './security/key-encryption-secret.js';
import { RateLimitStore } from './security/rate-limit-store.js';
import { RateLimiter } from './security/rate-limiter.js';
import { SecretBox } from './security/secret-box.js';

export interface RunningService {
  server: Server;
  db: Database;
  url: string;
  /** The interview lifecycle the lobby pages drive, sharing this service's clock. */
  lifecycle: InterviewLifecycle;
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
  const db = openDatabase(config.database, logger);
  const signingKeys = new SigningKeys(
    new SigningKeyStore(db),
    new SecretBox(keyEncryptionSecret, 'signing-keys'),
    clock,
    logger,
    config.signingKeyActivationDelayMs,
  );
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) logger.info({ migrations: applied }, 'applied database migrations');
    await signingKeys.ensureActiveKeys();
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const audit = new AuditLog(db, clock, logger);
  const accounts = new AccountStore(db);
  const apps = new AppStore(db);
  const codes = new AuthorizationCodes(db, clock);
  const tokens = new TokenStore(db);
  const rateLimits = new RateLimitStore(db);
  const verifier = new AccessTokenVerifier(
    signingKeys,
    tokens,
    clock,
    config.authUrl,
    config.apiUrl,
    config.tokenVerificationCacheMs,
  );
  const tokenService = new TokenService({
    tokens,
    codes,
    signer: new TokenSigner(signingKeys, clock, config.authUrl, config.apiUrl),
    verifier,
    accounts,
    audit,
    clock,
  });

  const interviewReads = new InterviewReadStore(db);
  const lobbyTokenBox = new SecretBox(keyEncryptionSecret, 'lobby-tokens');
  const archiveAfterMs = archiveDelayMs(config.archiveAfterDays);
  const interviews: InterviewServices = {
    scheduler: new InterviewScheduler(
      new EventWriteStore(db),
      accounts,
      lobbyTokenBox,
      clock,
      archiveAfterMs,
    ),
    finder: new EventFinder(db, keyEncryptionSecret),
  };
  const createGraphQLContext: ContextFactory = (request) => ({
    ...request,
    loaders: createInterviewLoaders(interviewReads, lobbyTokenBox, config.publicUrl),
    interviews,
    settle: settleAt(clock.now(), archiveAfterMs),
  });
  const lifecycle = new InterviewLifecycleService(
    db,
    lobbyTokenBox,
    config.publicUrl,
    clock,
    archiveAfterMs,
  );

  let shuttingDown = false;
  const app = createHttpApp({
    config,
    db,
    logger,
    graphqlSchema: buildSchema(interviewResolvers),
    authenticate: options.authenticate ?? ((token) => verifier.verify(token)),
    createGraphQLContext,
    isShuttingDown: () => shuttingDown,
    routers: [
      discoveryRouter(config, signingKeys),
      tokenRouter({
        service: tokenService,
        revocation: new TokenRevocation(tokens, verifier, audit, clock),
        introspection: new TokenIntrospection(tokens, verifier, clock, config.authUrl),
        clients: new ClientAuthenticator(apps),
        limiter: new RateLimiter(rateLimits, 'token', config.rateLimits.token, clock),
        bodyLimitBytes: config.bodyLimitBytes,
      }),
      accountInfoRouter(new AccountInfoService(accounts), verifier),
      authorizeRouter({
        config,
        db,
        clock,
        accounts,
        apps,
        codes,
        audit,
        signInLimiter: new RateLimiter(rateLimits, 'sign-in', config.rateLimits.signIn, clock),
        formSecret: keyEncryptionSecret,
      }),
      lobbyRouter({
        lifecycle,
        config,
        formSecret: keyEncryptionSecret,
        clock,
        identifyLimiter: new RateLimiter(
          rateLimits,
          'lobby-identify',
          config.rateLimits.signIn,
          clock,
        ),
      }),
      consoleRouter({
        config,
        db,
        clock,
        accounts,
        apps,
        audit,
        formSecret: keyEncryptionSecret,
        forgetVerifiedTokens: () => verifier.forgetAll(),
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
  const sweeper =
    config.sweepIntervalMs > 0
      ? startSweeper(
          new InterviewSweeper(db, archiveAfterMs),
          clock,
          config.sweepIntervalMs,
          logger,
        )
      : null;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      shuttingDown = true;
      const sweeperStopped = sweeper?.stop();
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
      await sweeperStopped;
      // A handler whose client hung up may still be running its queries: let them finish.
      if (!(await waitForIdlePool(db, config.shutdownTimeoutMs))) {
        logger.warn('shutdown timeout reached: closing the database pool with queries in flight');
      }
      await db.destroy();
    })();
    return stopping;
  };
  return { server, db, url, lifecycle, stop };
}
