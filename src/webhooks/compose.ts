import { BackgroundMail } from '../account-emails/background-mail.js';
import type { Accounts } from '../accounts/compose.js';
import { appPaths } from '../console/paths.js';
import type { Mailer } from '../mail/mailer.js';
import { observeWebhookQueue } from '../observability/webhook-metrics.js';
import { QueueReadings } from './queue-readings.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import type { DeliveryLog } from './delivery-log.js';
import { DeliveryStore, type DisabledEndpoint } from './delivery-store.js';
import { DeliveryWorker } from './delivery-worker.js';
import { disabledEndpointMail } from './disabled-endpoint-mail.js';
import { EndpointAgents, keepAliveAgents, type AgentFactory } from './endpoint-agents.js';
import type { EndpointUrlCheck } from './endpoint-url-check.js';
import { WebhookEndpointService } from './endpoint-service.js';
import { ManagedEndpointStore } from './managed-endpoint-store.js';
import { StoredWebhookOutbox } from './outbox.js';
import { checkEndpointUrl } from './ssrf/endpoint-url.js';
import { StoredDeliveryLog } from './stored-delivery-log.js';

/** Origins whose keep-alive connections one process keeps at once. */
const MOST_ORIGINS = 256;

/** How long stopping waits for attempts in flight before abandoning them, by default. */
const DEFAULT_STOP_GRACE_MS = 5000;

export interface RunningDelivery {
  /** Claims nothing more, finishes or abandons attempts in flight, waits for mails. */
  stop(): Promise<void>;
  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void;
  /** Deletes delivered and failed deliveries past WEBHOOK_RETENTION_DAYS now (tests). */
  purgeNow(): Promise<number>;
}

export interface Webhooks {
  /** Where capabilities record the changes partners hear about, in their transactions. */
  outbox: StoredWebhookOutbox;
  /** Deliveries and attempts as the management surfaces see them. */
  deliveryLog: DeliveryLog;
  /** The endpoints of each app: what the console, the CLI and the management API change. */
  endpoints: WebhookEndpointService;
  /** Starts this process's delivery worker (once per process, beside the sweeper). */
  startDelivering(): RunningDelivery;
}

/**
 * The webhooks capability (DESIGN §8). `mailer` and `accounts` tell an app's owner that the
 * service disabled an endpoint that failed for too long (the owner is read, never changed);
 * `accounts` also checks the employers of an endpoint's filter. `checkUrl` defaults to the SSRF
 * guard's registration check.
 * `agentFor` makes the connection pool of each endpoint origin: by default keep-alive agents
 * with the SSRF guard (src/webhooks/ssrf), which refuses what WEBHOOKS_ALLOW_PRIVATE_NETWORKS
 * does not allow in production. Endpoints of one origin share its pool: it must
 * allow WEBHOOK_CONCURRENCY sockets, so that one endpoint's hanging requests never queue
 * another's (the worker caps each endpoint).
 */
export function composeWebhooks(
  shared: SharedDependencies,
  deps: {
    mailer: Mailer;
    accounts: Pick<Accounts, 'stores'>;
    agentFor?: AgentFactory;
    checkUrl?: EndpointUrlCheck;
    stopGraceMs?: number;
  },
): Webhooks {
  const { db, clock, config, logger } = shared;
  const settings = config.webhooks;
  const store = new DeliveryStore(db);
  const accountStore = deps.accounts.stores.accounts;
  let running: DeliveryWorker | undefined;
  const wake = () => running?.wake();

  const mails = new BackgroundMail(logger, 'a webhook endpoint disabled mail');
  const tellOwner = (endpoint: DisabledEndpoint, reason: string) => {
    logger.warn({ endpointId: endpoint.id, appId: endpoint.app_id }, 'webhook endpoint disabled');
    mails.run(async () => {
      const owner = await accountStore.findUserById(endpoint.owner_user_id);
      if (!owner) return;
      await deps.mailer.send(
        disabledEndpointMail(owner.email, {
          appName: endpoint.app_name,
          endpointUrl: endpoint.url,
          reason,
          consoleUrl: `${config.authUrl}${appPaths(endpoint.client_id).overview}`,
        }),
      );
    });
  };

  const outbox = new StoredWebhookOutbox(wake);
  const deliveryLog = new StoredDeliveryLog(store, wake);
  const endpoints = new WebhookEndpointService(
    new ManagedEndpointStore(db),
    outbox,
    deliveryLog,
    shared.audit,
    shared.boxes.webhookSecrets,
    clock,
    {
      endpointsPerApp: settings.endpointsPerApp,
      employersPerEndpoint: settings.employersPerEndpoint,
      secretOverlapMs: settings.secretOverlapMs,
    },
    deps.checkUrl ??
      ((raw) =>
        checkEndpointUrl(raw, {
          allowPrivateNetworks: settings.allowPrivateNetworks,
          requireHttps: !settings.allowPrivateNetworks,
        })),
    async (ids) => {
      const found = await Promise.all(ids.map((id) => accountStore.findEmployerById(id)));
      return new Set(found.flatMap((employer) => (employer ? [employer.id] : [])));
    },
  );

  return {
    outbox,
    deliveryLog,
    endpoints,
    startDelivering() {
      if (running) throw new Error('the webhook delivery worker is already running');
      const agents = new EndpointAgents(
        deps.agentFor ??
          keepAliveAgents(settings.concurrency, settings.concurrencyPerEndpoint, settings),
        MOST_ORIGINS,
      );
      const worker = new DeliveryWorker({
        store,
        clock,
        logger,
        settings,
        source: config.apiUrl,
        secrets: shared.boxes.webhookSecrets,
        agents,
        onDisabled: tellOwner,
        stopGraceMs: deps.stopGraceMs ?? DEFAULT_STOP_GRACE_MS,
      });
      running = worker;
      const readings = new QueueReadings(store, clock, settings.queueReadMs, logger);
      const unobserve = observeWebhookQueue(readings);
      readings.start();
      worker.start();
      let stopping: Promise<void> | undefined;
      return {
        stop: () =>
          (stopping ??= (async () => {
            unobserve();
            await Promise.all([readings.stop(), worker.stop()]);
            if (running === worker) running = undefined;
            agents.close();
            await mails.idle();
          })()),
        wake: () => worker.wake(),
        purgeNow: () => worker.purgeNow(),
      };
    },
  };
}
