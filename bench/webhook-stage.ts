import { loadavg } from 'node:os';
import { createCliServices } from '../src/cli/services.js';
import type { Database } from '../src/db/database.js';
import { DeliveryStore } from '../src/webhooks/delivery-store.js';
import { issueAuthorizationCode } from './accounts.js';
import type { LoadDriver } from './driver-client.js';
import { CREATE_EVENT, createEventInput } from './operations.js';
import { graphqlLoad } from './scenarios/requests.js';
import { startServices } from './service.js';
import type { StageInput } from './stage-input.js';
import { obtainTokens } from './tokens.js';
import { WebhookReceiver } from './webhook-receiver-client.js';
import type { ReceiverReport } from './webhook-protocol.js';

/** What the table shows and --only matches (`--only webhooks`). */
export const WEBHOOK_STAGE_NAME =
  'W1 webhooks: signed deliveries to a loopback receiver, API under load';

/** Issue 20: at least this many deliveries a second, p95 from commit to 2xx under this. */
export const WEBHOOK_GOAL = { deliveriesPerSecond: 500, p95Ms: 1000 } as const;

/** After the load, how long the outbox may take to empty before the stage gives up waiting. */
const DRAIN_TIMEOUT_MS = 60_000;
const DRAIN_POLL_MS = 100;
/**
 * The driver stops without waiting for the requests it has open, whose changes commit a moment
 * later: the count waits at least this long after the load, far above the API's p99.
 */
const LAST_COMMITS_MS = 2000;
/** Counting pending rows stops here (the count stays cheap). */
const MOST_COUNTED = 1_000_000;

export interface WebhookStageResult {
  scenario: string;
  /** Endpoints of the bench app, each on its own path of the receiver. */
  endpoints: number;
  /** createVirtualInterviewEvent a second the driver asked for; each is one delivery per endpoint. */
  offeredChangesPerSecond: number;
  seconds: number;
  /**
   * The same load on the freshly started service before the measured one, left out of every
   * other figure: the service warms up (compiled code, pooled connections, the database's caches)
   * and the queue it built is empty before the measured load begins. Null with no warm-up.
   */
  warmup: {
    seconds: number;
    /** As `commitToReceiptMs`, for the warm-up's changes: what a cold start costs. */
    commitToReceiptMs: { p50: number; p95: number; p99: number; max: number };
    /** From the end of the warm-up load until its queue was empty. */
    drainSeconds: number;
  } | null;
  /** Processes serving requests (and each running a delivery worker). */
  workers: number;
  /** Deliveries the receiver accepted per second during the measured load. */
  deliveriesPerSecond: number;
  /** Receiver 2xx time minus the envelope's `time` (the change's commit), for the measured load's changes. */
  commitToReceiptMs: { p50: number; p95: number; p99: number; max: number };
  api: {
    requestsPerSecond: number;
    latencyMs: { p50: number; p95: number; p99: number };
    errors: number;
  };
  outbox: {
    /** Pending deliveries when the load stopped. */
    depthAtLoadEnd: number;
    /** Pending deliveries once the outbox emptied, or when the wait for it gave up. */
    depthAfterDrain: number;
    drainSeconds: number;
  };
  deliveries: {
    /** Outbox rows the load's changes wrote. */
    written: number;
    /** Rows in `delivered` state at the end. */
    delivered: number;
    /** Requests the receiver verified and answered 204, duplicates included. */
    accepted: number;
    /** Requests whose signature did not verify. */
    unverified: number;
    /** Accepted again with a webhook-id the endpoint had already accepted. */
    duplicates: number;
  };
  /** Every request verified, and every row written was accepted. */
  allVerified: boolean;
  /** The machine's 1, 5 and 15 minute load averages when the load began and ended. */
  loadAverage: { atStart: number[]; atEnd: number[] };
  goal: { deliveriesPerSecond: number; p95Ms: number };
  met: boolean;
}

export function webhookStageSelected(only: readonly string[]): boolean {
  const name = WEBHOOK_STAGE_NAME.toLowerCase();
  return !only.length || only.some((part) => name.includes(part.toLowerCase()));
}

/**
 * The webhook stage: the service (default configuration, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true so
 * that it may deliver to loopback) with the bench app's endpoints on a receiver process that
 * verifies every signature, while the driver runs createVirtualInterviewEvent at a steady rate.
 */
export async function measureWebhookStage(
  input: StageInput & { driver: LoadDriver },
): Promise<WebhookStageResult> {
  const { options, db, shared, accounts, driver, cleanup, log } = input;
  const receiver = new WebhookReceiver(input.repository);
  const stopReceiver = () => receiver.stop();
  cleanup.add(stopReceiver);
  const base = await receiver.start();
  const endpoints = createCliServices(shared).webhooks.endpoints;
  for (let index = 0; index < options.webhookEndpoints; index++) {
    const path = `/e/${index}`;
    const { secret } = await endpoints.create(accounts.app.id, {
      url: `${base}${path}`,
      description: `bench receiver ${index}`,
    });
    await receiver.register(path, secret);
  }

  const [service] = await startServices({
    repository: input.repository,
    configurations: [{ label: 'default', workers: options.workers }],
    ...input.service,
    extraEnv: { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' },
    profileDirectory: options.profileDirectory,
    log,
  });
  const stopService = async () => {
    input.beforeStop(service!, 'webhooks');
    await service!.stop();
  };
  cleanup.add(stopService);
  const code = await issueAuthorizationCode(shared, accounts);
  const { tokens } = await obtainTokens(service!.url, accounts, code);
  const load = graphqlLoad(tokens.writes, CREATE_EVENT, { input: createEventInput(Date.now()) });

  const seconds = options.webhookSeconds;
  const rate = options.webhookRate;
  const store = new DeliveryStore(db);
  const run = (forSeconds: number) =>
    driver.run({
      url: `${service!.url}${load.path}`,
      method: load.method,
      headers: load.headers,
      body: load.body,
      connections: options.connections,
      seconds: forSeconds,
      rate,
      graphql: true,
    });
  /** Waits until the outbox is empty (and the driver's last requests committed); its depth then. */
  const drain = async (since: number) => {
    let depth = (await store.queue(MOST_COUNTED)).depth;
    while (
      (depth > 0 || Date.now() - since < LAST_COMMITS_MS) &&
      Date.now() - since < DRAIN_TIMEOUT_MS
    ) {
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
      depth = (await store.queue(MOST_COUNTED)).depth;
    }
    return depth;
  };

  const warmupSeconds = options.webhookWarmupSeconds;
  let warmupWindow: { from: number; until: number; drainSeconds: number } | null = null;
  if (warmupSeconds > 0) {
    log(`${WEBHOOK_STAGE_NAME}: warming up, ${rate}/s for ${warmupSeconds} s`);
    const from = Date.now();
    await run(warmupSeconds);
    const until = Date.now();
    await drain(until);
    warmupWindow = { from, until, drainSeconds: (Date.now() - until) / 1000 };
  }

  log(
    `${WEBHOOK_STAGE_NAME}: ${rate} createVirtualInterviewEvent/s for ${seconds} s, ` +
      `${options.webhookEndpoints} endpoint(s)`,
  );
  const atStart = loadavg();
  const loadStarted = Date.now();
  const api = await run(seconds);
  const loadEnded = Date.now();
  const atEnd = loadavg();

  const depthAtLoadEnd = (await store.queue(MOST_COUNTED)).depth;
  const depthAfterDrain = await drain(loadEnded);
  const drainSeconds = (Date.now() - loadEnded) / 1000;
  const received = await receiver.report();
  const counts = await deliveryCounts(db);
  const workers = service!.servingProcesses();
  await cleanup.runOne(stopService);
  await cleanup.runOne(stopReceiver);

  const window = { from: loadStarted, until: loadEnded };
  const deliveriesPerSecond =
    received.acceptedAt.filter((at) => at >= window.from && at <= window.until).length /
    ((window.until - window.from) / 1000);
  const commitToReceiptMs = lags(received, window);
  const deliveries = { ...counts, ...pick(received) };
  const allVerified =
    deliveries.unverified === 0 &&
    deliveries.accepted - deliveries.duplicates === deliveries.written &&
    deliveries.delivered === deliveries.written;
  return {
    scenario: WEBHOOK_STAGE_NAME,
    endpoints: options.webhookEndpoints,
    offeredChangesPerSecond: rate,
    seconds,
    warmup: warmupWindow && {
      seconds: warmupSeconds,
      commitToReceiptMs: lags(received, warmupWindow),
      drainSeconds: round1(warmupWindow.drainSeconds),
    },
    workers,
    deliveriesPerSecond: round1(deliveriesPerSecond),
    commitToReceiptMs,
    api: {
      requestsPerSecond: round1(api.requestsPerSecond),
      latencyMs: api.latency,
      errors: api.non2xx + api.socketErrors + api.graphqlErrors,
    },
    outbox: { depthAtLoadEnd, depthAfterDrain, drainSeconds: round1(drainSeconds) },
    deliveries,
    allVerified,
    loadAverage: { atStart: atStart.map(round2), atEnd: atEnd.map(round2) },
    goal: { ...WEBHOOK_GOAL },
    met:
      deliveriesPerSecond >= WEBHOOK_GOAL.deliveriesPerSecond &&
      commitToReceiptMs.p95 < WEBHOOK_GOAL.p95Ms,
  };
}

async function deliveryCounts(db: Database): Promise<{ written: number; delivered: number }> {
  const rows: Array<{ status: string; count: unknown }> = await db('webhook_deliveries')
    .select('status')
    .count({ count: '*' })
    .groupBy('status');
  const written = rows.reduce((sum, row) => sum + Number(row.count), 0);
  const delivered = Number(rows.find((row) => row.status === 'delivered')?.count ?? 0);
  return { written, delivered };
}

function pick(report: ReceiverReport) {
  const { accepted, unverified, duplicates } = report;
  return { accepted, unverified, duplicates };
}

function lags(
  report: ReceiverReport,
  window: { from: number; until: number },
): WebhookStageResult['commitToReceiptMs'] {
  const lagsMs: number[] = [];
  report.changedAt.forEach((changedAt, index) => {
    if (changedAt >= window.from && changedAt <= window.until) {
      lagsMs.push(report.acceptedAt[index]! - changedAt);
    }
  });
  lagsMs.sort((a, b) => a - b);
  return {
    p50: percentile(lagsMs, 0.5),
    p95: percentile(lagsMs, 0.95),
    p99: percentile(lagsMs, 0.99),
    max: lagsMs.at(-1) ?? 0,
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
