import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../../src/clock.js';
import type { WebhookDeliveryRow } from '../../src/db/rows.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { newEndpointSecret } from '../../src/webhooks/signature.js';
import { volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { mutatedEvent, type InterviewRequests } from '../support/interview-requests.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';
import {
  RAISED_RATE_LIMITS,
  fixedAddress,
  startServiceProcess,
  workersReplaced,
  type ServiceProcess,
} from '../support/service-process.js';
import { employerApi } from '../support/token-requests.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const MUTATIONS = volume('RELIABILITY_WEBHOOK_MUTATIONS', 2000);
const ROUNDS = volume('RELIABILITY_WEBHOOK_KILL_ROUNDS', 6);
const CLIENTS = 6;
/** A round runs at least this long before its kill: "every few seconds". */
const ROUND_MIN_MS = 2500;

/** Short enough for a test, long enough (16 attempts) that a 30 % fault rate never exhausts it. */
const WEBHOOK_ENV = {
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms,500ms,500ms,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL_MS: '200',
  WEBHOOK_RETRY_AFTER_MAX_SECONDS: '1',
};

/** What the clients asked for and what the service acknowledged. */
class MutationLedger {
  attempted = 0;
  acknowledged = 0;
  unanswered = 0;
  readonly created = new Set<string>();
  /** Acknowledged setTitle calls per event. */
  readonly titled = new Map<string, number>();
  readonly attemptedTitles = new Map<string, number>();
  readonly cancelled = new Set<string>();
}

/**
 * Issue 20's crash and fault test, on the production default (a primary and two workers): the
 * Interview API takes MUTATIONS mutations (creates, title changes, cancellations) while a worker
 * or the whole cluster is SIGKILLed every few seconds, and the receiver fails 30 % of requests
 * at random (500s, resets, answers that never come, 429 with Retry-After). Afterwards every
 * committed change was delivered at least once, nothing was delivered for a change that did not
 * commit, and a duplicate always carries the same webhook-id and the same bytes.
 */
describeEachDialect(
  'reliability: webhooks through SIGKILLs and a failing receiver (cluster)',
  (database) => {
    it(`delivers every committed change of ${MUTATIONS} mutations`, async function () {
      this.timeout(900_000);
      const { db } = database();
      const tenant = await createOAuthTenant(db, systemClock, 'webhook-crash');
      const secret = newEndpointSecret();
      const receiver = await WebhookReceiver.start({
        secrets: () => [secret],
        faultRate: 0.3,
        seed: 2026,
      });
      const endpointId = randomUUID();
      const now = Date.now();
      await db('webhook_endpoints').insert({
        id: endpointId,
        app_id: tenant.app.id,
        url: receiver.url,
        description: 'crash test receiver',
        event_types: '',
        employer_ids: '',
        enabled: true,
        secret_sealed: new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'webhook-secrets').seal(secret),
        created_at: now,
        updated_at: now,
      });
      const env = { ...(await fixedAddress()), ...RAISED_RATE_LIMITS, ...WEBHOOK_ENV };
      const ledger = new MutationLedger();
      let service = await startServiceProcess(database(), env, 'cluster');
      try {
        const api = await employerApi(service.url, tenant);
        for (let round = 1; round <= ROUNDS; round += 1) {
          const wholeCluster = round % 2 === 0;
          const quota = Math.ceil((MUTATIONS * round) / ROUNDS);
          await mutateUntilKilled(service, api, ledger, quota, wholeCluster);
          console.log(
            `      kill ${round} (${wholeCluster ? 'primary' : 'one worker'}): ` +
              `${ledger.acknowledged} acknowledged, ${ledger.unanswered} unanswered so far`,
          );
          if (wholeCluster) service = await startServiceProcess(database(), env, 'cluster');
          else await workersReplaced(service);
        }

        const outbox = await drained(() => db<WebhookDeliveryRow>('webhook_deliveries'), service);
        const events = new Set(
          (
            await db('interview_events').where({ created_by_app_id: tenant.app.id }).pluck('id')
          ).map(String),
        );
        console.log(
          `      ${ledger.attempted} mutations, ${ledger.acknowledged} acknowledged; ` +
            `${outbox.length} deliveries, receiver: ${receiver.requests} requests, faults ` +
            JSON.stringify(receiver.faultCounts),
        );

        assert.deepEqual(receiver.refused, [], 'every request verified, parsed and matched');
        assert.deepEqual(receiver.changedBodies, [], 'a duplicate is byte for byte the same');
        assert.ok(ledger.acknowledged >= MUTATIONS, `${ledger.acknowledged} acknowledged`);

        // Every committed change was delivered; nothing was delivered that is not in the outbox.
        const committed = new Map(outbox.map((row) => [row.message_id, row]));
        assert.equal(committed.size, outbox.length, 'one delivery per endpoint per change');
        const undelivered = outbox.filter((row) => !receiver.accepted.has(row.message_id));
        assert.deepEqual(
          undelivered.map((row) => row.message_id),
          [],
          'committed, not received',
        );
        const phantoms = [...receiver.accepted.keys()].filter((id) => !committed.has(id));
        assert.deepEqual(phantoms, [], 'received, never committed');

        // The outbox agrees with the database and with what the clients were told.
        const createdSubjects = outbox
          .filter((row) => row.type === 'interview.event.created.v1')
          .map((row) => row.subject);
        assert.deepEqual([...createdSubjects].sort(), [...events].sort(), 'one created per event');
        for (const id of ledger.created)
          assert.ok(events.has(id), `acknowledged event ${id} exists`);
        const titles = countBy(
          outbox.filter((row) => row.type === 'interview.event.updated.v1'),
          (row) => row.subject,
        );
        for (const [id, acknowledged] of ledger.titled) {
          const delivered = titles.get(id) ?? 0;
          assert.ok(delivered >= acknowledged, `${id}: ${delivered} updates for ${acknowledged}`);
          assert.ok(delivered <= ledger.attemptedTitles.get(id)!, `${id}: more updates than asked`);
        }
        const cancelledSubjects = new Set(
          outbox.filter((row) => row.type === 'interview.event.cancelled.v1').map((r) => r.subject),
        );
        for (const id of ledger.cancelled) assert.ok(cancelledSubjects.has(id), `${id} cancelled`);
        // Each subject's changes are numbered 1..n without a gap.
        for (const [subject, rows] of groupBy(outbox, (row) => row.subject)) {
          const sequences = rows.map((row) => Number(row.sequence)).sort((a, b) => a - b);
          assert.deepEqual(
            sequences,
            Array.from({ length: rows.length }, (_, i) => i + 1),
            subject,
          );
        }
      } finally {
        await service.stop();
        await receiver.stop();
      }
      assert.ok(
        service.crashes().filter((line) => !/worker died unexpectedly/.test(line)).length === 0,
        service.crashes().join('\n'),
      );
    });
  },
);

/**
 * Mutations from CLIENTS clients until the ledger reaches `quota` acknowledged and the round has
 * run ROUND_MIN_MS, then a SIGKILL while requests are in flight.
 */
async function mutateUntilKilled(
  service: ServiceProcess,
  api: InterviewRequests,
  ledger: MutationLedger,
  quota: number,
  wholeCluster: boolean,
): Promise<void> {
  let killed = false;
  const started = Date.now();
  async function client(index: number): Promise<void> {
    const own: string[] = [];
    for (let n = 0; !killed; n += 1) {
      const action = own.length === 0 || n % 3 === 0 ? 'create' : n % 7 === 0 ? 'cancel' : 'title';
      const target = own[n % Math.max(own.length, 1)];
      ledger.attempted += 1;
      if (action === 'title') {
        ledger.attemptedTitles.set(target!, (ledger.attemptedTitles.get(target!) ?? 0) + 1);
      }
      let answer;
      try {
        answer =
          action === 'create'
            ? await api.create({ title: `webhooks ${index}-${n}`, interviewers: [] })
            : action === 'cancel'
              ? await api.cancel(target!)
              : await api.setTitle(target!, `webhooks ${index}-${n}`);
      } catch {
        ledger.unanswered += 1;
        if (!killed) await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      const event = mutatedEvent(answer);
      if (!event) continue;
      ledger.acknowledged += 1;
      if (action === 'create') {
        ledger.created.add(event.id);
        own.push(event.id);
      } else if (action === 'title') {
        ledger.titled.set(event.id, (ledger.titled.get(event.id) ?? 0) + 1);
      } else {
        ledger.cancelled.add(event.id);
        own.splice(own.indexOf(event.id), 1);
      }
    }
  }
  const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
  while (ledger.acknowledged < quota || Date.now() - started < ROUND_MIN_MS) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (wholeCluster) {
    await service.kill();
  } else {
    service.killWorker();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  killed = true;
  await Promise.all(clients);
}

/** Waits until no delivery is pending (failed ones count as drained, and fail the test later). */
async function drained(
  rows: () => Promise<WebhookDeliveryRow[]>,
  service: ServiceProcess,
): Promise<WebhookDeliveryRow[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const all = await rows();
    const pending = all.filter((row) => row.status === 'pending');
    if (pending.length === 0) return all;
    if (Date.now() > deadline) {
      throw new Error(`${pending.length} deliveries still pending\n${service.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
