import { createServer, type Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { composeAccountEmails } from './account-emails/compose.js';
import { composeAccounts } from './accounts/compose.js';
import { API_CATALOGUE, graphqlApis } from './apis.js';
import { composeCalendarMail } from './calendar-mail/compose.js';
import { createRequestListener } from './app.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { composeConsole } from './console/compose.js';
import { composeCostBudgets } from './cost-budgets/compose.js';
import { composeDeployment } from './deployment/compose.js';
import { composeDispositionSync } from './disposition-sync/compose.js';
import { composeEmployerData } from './employer-data/compose.js';
import { CONSOLE_PATHS, emailLinkUrls } from './console/paths.js';
import {
  checkWritable,
  ensureReachable,
  openDatabase,
  waitForIdlePool,
  type Database,
} from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { composeGraphQL } from './graphql/compose.js';
import type { BearerAuthenticator } from './graphql/gateway.js';
import { SCHEMA_DOWNLOAD_PATH } from './graphql/schema-download.js';
import { API_REFERENCE_PATHS, apiReferenceRouter } from './http/api-reference.js';
import { homeRouter } from './http/home-page.js';
import { composeInterviews } from './interviews/compose.js';
import { composeJobSearch } from './job-search/compose.js';
import { composeJobSync } from './job-sync/compose.js';
import type { InterviewLifecycle } from './interviews/lifecycle/interview-lifecycle.js';
import { composeLobby } from './lobby/compose.js';
import { composeRoom } from './room/compose.js';
import { composeMail } from './mail/compose.js';
import { composeMetrics } from './observability/compose.js';
import { composeGrants, composeOAuth } from './oauth/compose.js';
import type { Grant } from './oauth/grants/grant.js';
import { createRealtimeBus } from './realtime/compose.js';
import { composeRecordings } from './recordings/compose.js';
import { resolveKeyEncryptionSecret } from './security/key-encryption-secret.js';
import { composeSessions } from './sessions/compose.js';
import { createSharedDependencies } from './shared-dependencies.js';
import { composeWebhooks } from './webhooks/compose.js';

export interface RunningService {
  server: Server;
  db: Database;
  url: string;
  /** The interview lifecycle the lobby pages drive, sharing this service's clock. */
  lifecycle: InterviewLifecycle;
  /** Runs the room sweep now (orphaned connections, abandoned interviews); tests drive it. */
  sweepRooms(): Promise<string[]>;
  /** Sends the calendar mails due now, when this process sends them; how many were settled. */
  sendCalendarMails(): Promise<number>;
  /** Where METRICS_PORT serves /metrics, when it is set (and this is no cluster worker). */
  metricsUrl?: string;
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
  /** The token endpoint's grants, in order: the built-in ones unless a test registers others. */
  grants?: readonly Grant[];
  /** prepareDatabase already ran for this database (a cluster worker): no migrations here. */
  prepared?: boolean;
  /**
   * Serve POST /oauth/v2/tokens and POST /graphql below Express (src/http/fast-listener.ts);
   * on unless false. Off when tracing, whose Express spans these requests would then lack.
   */
  fastRoutes?: boolean;
}

/** Every capability composed over one database handle; nothing listens or runs yet. */
function composeCapabilities(options: StartOptions) {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const keyEncryptionSecret = resolveKeyEncryptionSecret(config, logger);
  const db = openDatabase(config.database, logger);
  const shared = createSharedDependencies({ db, clock, logger, config, keyEncryptionSecret });
  const deployment = composeDeployment(shared);
  const grants = composeGrants(options.grants);
  const accounts = composeAccounts(shared, { grantTypes: grants.names, apis: API_CATALOGUE });
  const sessions = composeSessions(shared, accounts);
  // Between the processes of the deployment: room messages and token revocations.
  const bus = createRealtimeBus(config, logger);
  const oauth = composeOAuth(shared, {
    accounts,
    sessions,
    grants,
    forgotPasswordHref: CONSOLE_PATHS.forgotPassword,
    bus,
  });
  const mail = composeMail(shared);
  const accountEmails = composeAccountEmails(shared, {
    accounts,
    sessions,
    mail,
    urls: emailLinkUrls(config.authUrl),
  });
  const webhooks = composeWebhooks(shared, { mailer: mail.mailer, accounts });
  // Every committed change of an interview writes its deliveries here, in its own transaction.
  const outbox = webhooks.outbox;
  // Recordings announce themselves in the room, composed below; the hook runs on requests only.
  const recordings = composeRecordings(shared, {
    onRecordingChange: (eventId, change) => room.recordingChanged(eventId, change),
    outbox,
  });
  // Interview changes also write their participants' calendar mails, in the same transaction.
  const calendarMail = composeCalendarMail(shared, { mail });
  const interviews = composeInterviews(shared, {
    accounts,
    recordings,
    outbox: calendarMail.observing(outbox),
  });
  const employerData = composeEmployerData(shared);
  // The search index keeps its projection of the postings, written in each change's transaction.
  const jobSearch = composeJobSearch(shared);
  // Posting changes tell the webhook outbox and the search index in their own transaction.
  const jobSync = composeJobSync(shared, {
    outbox,
    employers: employerData.pairs,
    observers: [jobSearch.postingObserver],
  });
  const lobby = composeLobby(shared, { interviews, sessions, recordings, calendar: calendarMail });
  const room = composeRoom(shared, { interviews, lobby, recordings, bus });
  const costBudgets = composeCostBudgets(shared);
  const dispositionSync = composeDispositionSync(shared);
  const partnerConsole = composeConsole(shared, {
    accounts,
    sessions,
    oauth,
    accountEmails,
    mail,
    webhooks,
    costBudgets,
    calendarMail,
    dispositionSync,
    jobSync,
  });
  const graphql = composeGraphQL(shared, {
    apis: graphqlApis({
      interviews,
      webhooks,
      dispositionSync,
      jobSearch,
      jobSync,
      employerData,
      publicUrl: config.publicUrl,
    }),
    authenticate: options.authenticate ?? ((token) => oauth.verifier.authenticate(token)),
    access: accounts.apiAccessFacts,
    ...(costBudgets.admission && { budgets: costBudgets.admission }),
  });
  const closeMail = async () => {
    // Mails asked for before shutdown are still sent.
    await Promise.all([accountEmails.passwordReset.idle(), accountEmails.signUp.idle()]);
    mail.close();
  };
  return {
    db,
    bus,
    clock,
    deployment,
    accounts,
    oauth,
    interviews,
    jobSync,
    employerData,
    recordings,
    lobby,
    room,
    partnerConsole,
    graphql,
    webhooks,
    costBudgets,
    calendarMail,
    dispositionSync,
    jobSearch,
    closeMail,
    /** The home page's links: the development outbox only where there is one. */
    homeLinks: {
      console: CONSOLE_PATHS.dashboard,
      docs: API_REFERENCE_PATHS.page,
      graphqlDocs: API_REFERENCE_PATHS.graphql,
      outbox: mail.outbox ? CONSOLE_PATHS.devOutbox : undefined,
    },
  };
}

/**
 * Reaches the database (one line naming it when it cannot), applies pending migrations, creates
 * the signing keys a fresh database lacks and checks that KEY_ENCRYPTION_SECRET opens them, then
 * records this server's settings for the admin CLI (src/deployment/).
 */
async function prepare(
  { db, oauth, deployment }: Pick<Capabilities, 'db' | 'oauth' | 'deployment'>,
  config: Config,
  logger: Logger,
): Promise<void> {
  await ensureReachable(db, config.database);
  const applied = await migrateToLatest(db);
  if (applied.length) logger.info({ migrations: applied }, 'applied database migrations');
  await oauth.signingKeys.ensureActiveKeys();
  await oauth.signingKeys.confirmSecret();
  await deployment.settings.record(config);
}

type Capabilities = ReturnType<typeof composeCapabilities>;

/**
 * What the database needs before any process serves it, done once: the cluster primary runs
 * it before it forks workers that start with `prepared: true`. startService alone does it too.
 */
export async function prepareDatabase(options: StartOptions): Promise<void> {
  const capabilities = composeCapabilities(options);
  const { db, room, bus } = capabilities;
  try {
    await prepare(capabilities, options.config, options.logger);
  } finally {
    await room.close();
    await bus.close();
    await db.destroy();
  }
}

/**
 * The composition root: opens the database, has each capability compose itself, applies
 * migrations (unless `prepared`), mounts the capabilities' routers, listens and starts the
 * background sweeper.
 */
export async function startService(options: StartOptions): Promise<RunningService> {
  const { config, logger } = options;
  const capabilities = composeCapabilities(options);
  const {
    db,
    bus,
    clock,
    oauth,
    interviews,
    recordings,
    lobby,
    room,
    partnerConsole,
    graphql,
    webhooks,
    costBudgets,
    calendarMail,
    dispositionSync,
    jobSearch,
    closeMail,
    homeLinks,
    accounts,
  } = capabilities;
  if (!options.prepared) {
    try {
      await prepare(capabilities, config, logger);
    } catch (error) {
      await room.close();
      await bus.close();
      await db.destroy();
      throw error;
    }
  }
  // Read before the first request, so that no request of a fresh process reads them.
  await accounts.apiAccessFacts.warm();
  const metrics = composeMetrics(config, db);

  let shuttingDown = false;
  const listener = createRequestListener(
    {
      config,
      checkWritable: () => checkWritable(db, clock.now()),
      logger,
      isShuttingDown: () => shuttingDown,
      observeRequests: metrics?.observeRequests,
      // GraphQL first: it answers only /graphql, and a request there would otherwise be matched
      // against every route of the console, the lobby and the pages before reaching it.
      routers: [
        graphql.router(),
        ...(metrics?.routers ?? []),
        ...oauth.routers(),
        lobby.router(),
        recordings.streamRouter(),
        partnerConsole.router(),
        apiReferenceRouter({ schemaHref: SCHEMA_DOWNLOAD_PATH }),
        homeRouter(homeLinks),
      ],
    },
    options.fastRoutes === false ? [] : [graphql.endpoint, ...oauth.tokenEndpoints],
  );
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('upgrade', (req, socket, head) => {
    if (!room.upgrade(req, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    }
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  const metricsUrl = await metrics?.listen();
  const sweeper = interviews.startSweeping();
  const delivery = config.webhooks.deliveryWorker ? webhooks.startDelivering() : undefined;
  const calendarSender = calendarMail.startSending();
  const dispositionPurge = dispositionSync.startPurging();
  const searchIndexUpkeep = jobSearch.startUpkeep();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      shuttingDown = true;
      const sweeperStopped = sweeper?.stop();
      const deliveryStopped = delivery?.stop();
      const calendarSenderStopped = calendarSender?.stop();
      const dispositionPurgeStopped = dispositionPurge.stop();
      const searchIndexUpkeepStopped = searchIndexUpkeep.stop();
      // Live connections are upgraded sockets that server.close() does not wait for.
      const roomClosed = room.close();
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
      await deliveryStopped;
      await calendarSenderStopped;
      await dispositionPurgeStopped;
      await searchIndexUpkeepStopped;
      await roomClosed;
      // A recording stopped just before finishes finalising; one cut short is the sweeper's.
      await Promise.race([
        recordings.finalisation.idle(),
        delay(config.shutdownTimeoutMs, undefined, { ref: false }),
      ]);
      await bus.close();
      await closeMail();
      // What this process leased and did not admit goes back to its clients' budgets.
      await costBudgets.close();
      // A handler whose client hung up may still be running its queries: let them finish.
      if (!(await waitForIdlePool(db, config.shutdownTimeoutMs))) {
        logger.warn('shutdown timeout reached: closing the database pool with queries in flight');
      }
      await metrics?.stop();
      await db.destroy();
    })();
    return stopping;
  };
  return {
    server,
    db,
    url,
    metricsUrl,
    lifecycle: interviews.lifecycle,
    sweepRooms: () => room.sweepNow(),
    sendCalendarMails: async () => (calendarSender ? calendarSender.sendDueNow() : 0),
    stop,
  };
}
