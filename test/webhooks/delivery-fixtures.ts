import { testAccounts } from '../support/compose.js';
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP, type CloudEvent } from 'cloudevents';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type {
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from '../../src/db/rows.js';
import { inTransaction } from '../../src/db/transactions.js';
import type { Mail, Mailer } from '../../src/mail/mailer.js';
import {
  composeWebhooks,
  type RunningDelivery,
  type Webhooks,
} from '../../src/webhooks/compose.js';
import { EndpointStore } from '../../src/webhooks/endpoint-store.js';
import type { WebhookNotice } from '../../src/webhooks/notice.js';
import { newEndpointSecret } from '../../src/webhooks/signature.js';
import type { SharedDependencies } from '../../src/shared-dependencies.js';
import { testSharedDependencies } from '../support/compose.js';
import type { TestDatabase } from '../support/databases.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { endpointRow } from '../support/webhook-rows.js';

/** Short timings for tests: each may override them. */
export const FAST_WEBHOOKS: Record<string, string> = {
  WEBHOOK_RETRY_SCHEDULE: '30ms,30ms,30ms',
  // Far above a loopback answer, even while a test process warms up.
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_POLL_MS: '25',
  WEBHOOK_QUEUE_READ_MS: '50',
  WEBHOOK_CONCURRENCY: '16',
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: '4',
  API_URL: 'https://api.example.test',
};

/** One request the receiver got, verified and parsed as a partner's receiver would. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  webhookId: string;
  /** Every secret the receiver holds for the path verified the request. */
  verified: boolean;
  /** Why one did not. */
  verifyError?: string;
  event?: CloudEvent<unknown>;
  at: number;
}

/** What the receiver does with one request to a path; `n` counts that path's requests from 0. */
export interface PlainAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

export type Answer = PlainAnswer | { hang: true } | { endless: true; status: number };

export interface Receiver {
  url(path: string): string;
  received: Received[];
  /** The secrets a path's requests must verify with (each of them), and how it answers. */
  route(path: string, route: { secrets?: string[]; answer?: (n: number) => Answer }): void;
  of(path: string): Received[];
  /** Requests of a path being answered right now, by webhook-id. */
  inFlight: Map<string, number>;
  maxInFlightPerId: number;
  close(): Promise<void>;
}

/** A partner's receiver on 127.0.0.1: verifies with standardwebhooks, parses with cloudevents. */
export async function startReceiver(): Promise<Receiver> {
  const routes = new Map<
    string,
    { secrets: string[]; answer: (n: number) => Answer; count: number }
  >();
  const received: Received[] = [];
  const inFlight = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const state = { maxInFlightPerId: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const route = routes.get(path) ?? { secrets: [], answer: () => ({ status: 200 }), count: 0 };
      routes.set(path, route);
      const entry: Received = {
        path,
        headers: req.headers,
        body,
        webhookId: String(req.headers['webhook-id']),
        verified: route.secrets.length > 0,
        at: Date.now(),
      };
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      for (const secret of route.secrets) {
        try {
          new Webhook(secret).verify(body, headers);
        } catch (error) {
          entry.verified = false;
          entry.verifyError = (error as Error).message;
        }
      }
      try {
        entry.event = HTTP.toEvent({ headers: req.headers, body }) as CloudEvent<unknown>;
      } catch {
        // Left undefined: the test's assertions say so.
      }
      received.push(entry);
      const key = `${path} ${entry.webhookId}`;
      const now = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, now);
      state.maxInFlightPerId = Math.max(state.maxInFlightPerId, now);
      const done = () => inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
      const answer = route.answer(route.count++);
      if ('hang' in answer) {
        hanging.add(res);
        res.on('close', done);
        return;
      }
      if ('endless' in answer) {
        res.writeHead(answer.status, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(4096);
        const write = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', write);
        };
        res.on('close', done);
        write();
        return;
      }
      const plain = answer as PlainAnswer;
      const reply = () => {
        res.writeHead(plain.status, plain.headers).end(plain.body ?? 'ok');
        done();
      };
      if (plain.delayMs) setTimeout(reply, plain.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    route(path, route) {
      routes.set(path, {
        secrets: route.secrets ?? [],
        answer: route.answer ?? (() => ({ status: 200 })),
        count: 0,
      });
    },
    of: (path) => received.filter((entry) => entry.path === path),
    inFlight,
    get maxInFlightPerId() {
      return state.maxInFlightPerId;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Mails the service sent, instead of sending them. */
export class RecordingMailer implements Mailer {
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
}

export interface WebhookWorld {
  shared: SharedDependencies;
  webhooks: Webhooks;
  mailer: RecordingMailer;
  tenant: Awaited<ReturnType<typeof createOAuthTenant>>;
  /** Registers an endpoint of the tenant's app with a new secret; the row and the secret. */
  endpoint(
    url: string,
    overrides?: Partial<WebhookEndpointRow>,
  ): Promise<{ row: WebhookEndpointRow; secret: string }>;
  /** Records a notice of the tenant's app in a transaction of its own (it commits). */
  notify(subject: string, type?: WebhookNotice['type']): Promise<void>;
  deliveries(): Promise<WebhookDeliveryRow[]>;
}

/** A tenant with an app, and the webhooks capability composed over `db` with `env`. */
export async function webhookWorld(
  db: Database,
  options: { clock?: Clock; env?: Record<string, string>; stopGraceMs?: number } = {},
): Promise<WebhookWorld> {
  const shared = testSharedDependencies(db, {
    clock: options.clock,
    env: { ...FAST_WEBHOOKS, ...options.env },
  });
  const tenant = await createOAuthTenant(db, shared.clock);
  return composedWorld(shared, tenant, options.stopGraceMs);
}

/** Another composition (another process) over the same database and tenant. */
export function composedWorld(
  shared: SharedDependencies,
  tenant: WebhookWorld['tenant'],
  stopGraceMs = 200,
): WebhookWorld {
  const { db, clock } = shared;
  const mailer = new RecordingMailer();
  const webhooks = composeWebhooks(shared, {
    mailer,
    accounts: testAccounts(db, clock),
    stopGraceMs,
  });
  return {
    shared,
    webhooks,
    mailer,
    tenant,
    async endpoint(url, overrides = {}) {
      const secret = newEndpointSecret();
      const now = clock.now();
      const row = endpointRow({
        id: randomUUID(),
        app_id: tenant.app.id,
        url,
        secret_sealed: shared.boxes.webhookSecrets.seal(secret),
        created_at: now,
        updated_at: now,
        ...overrides,
      });
      await new EndpointStore(db).insert(row);
      return { row, secret };
    },
    async notify(subject, type = 'interview.event.created.v1') {
      await inTransaction(db, (tx) =>
        webhooks.outbox.record(
          {
            appId: tenant.app.id,
            employerId: tenant.employer.id,
            type,
            subject,
            time: clock.now(),
            data: { eventId: subject, employerId: tenant.employer.id },
          },
          tx,
        ),
      );
    },
    async deliveries() {
      const rows: WebhookDeliveryRow[] = await db('webhook_deliveries')
        .where({ app_id: tenant.app.id })
        .orderBy('id');
      return rows.map((row) => ({
        ...row,
        id: Number(row.id),
        attempt_count: Number(row.attempt_count),
        next_attempt_at: Number(row.next_attempt_at),
      }));
    },
  };
}

/** Polls `check` until it holds (or fails after `timeoutMs`). */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What a suite of delivery tests shares: see deliverySuite. */
export interface DeliverySuite {
  /** This test's receiver. */
  readonly receiver: Receiver;
  /** Starts the world's delivery worker, stopped after the test. */
  start(world: WebhookWorld): RunningDelivery;
  /** The attempts of one of the world's deliveries, oldest first. */
  attemptsOf(world: WebhookWorld, deliveryId: number): Promise<WebhookAttemptRow[]>;
}

/**
 * Hooks for a suite of delivery tests: a fresh receiver for each test; after it, its workers
 * stopped, its receiver closed and every delivery deleted, so that each test's workers see only
 * its own deliveries.
 */
export function deliverySuite(database: () => TestDatabase): DeliverySuite {
  let receiver: Receiver | undefined;
  let running: RunningDelivery[] = [];
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(running.map((delivery) => delivery.stop()));
    running = [];
    await receiver?.close();
    await database().db('webhook_deliveries').delete();
  });
  return {
    get receiver() {
      if (!receiver) throw new Error('the receiver starts before each test');
      return receiver;
    },
    start(world) {
      const delivery = world.webhooks.startDelivering();
      running.push(delivery);
      return delivery;
    },
    async attemptsOf(world, deliveryId) {
      const attempts = await world.webhooks.deliveryLog.attempts(world.tenant.app.id, [deliveryId]);
      return attempts.get(deliveryId) ?? [];
    },
  };
}
