import assert from 'node:assert/strict';
import { inTransaction } from '../../src/db/transactions.js';
import {
  DeliveryStore,
  type AttemptRecord,
  type ClaimedDelivery,
  type Settlement,
} from '../../src/webhooks/delivery-store.js';
import { describeEachDialect } from '../support/databases.js';
import { webhookWorld } from './delivery-fixtures.js';

function attempt(at: number, statusCode: number | null): AttemptRecord {
  return {
    attempted_at: at,
    status_code: statusCode,
    latency_ms: 7,
    response_excerpt: statusCode === null ? null : `answered ${statusCode}`,
    error: statusCode === null ? 'connection reset' : null,
  };
}

/**
 * DeliveryStore.settleMany: a whole group of attempts in one UPDATE, each state written only
 * under the lease it was sent with, each attempt recorded while its delivery exists.
 */
describeEachDialect('webhook delivery store: settling a group', (database) => {
  afterEach(async () => {
    await database().db('webhook_deliveries').delete();
  });

  it('writes each state under its own lease, in one statement for the group', async () => {
    const { db } = database();
    const w = await webhookWorld(db);
    const { row: endpoint } = await w.endpoint('https://receiver.example.test/hooks');
    for (const subject of ['delivered', 'retried', 'failed', 'stale', 'gone', 'twice']) {
      await w.notify(subject);
    }
    const store = new DeliveryStore(db);
    const now = Date.now();
    const claimed = await store.claim({
      now,
      lease: now + 60_000,
      limit: 10,
      busyEndpoints: [],
      freeSlotsOf: () => 10,
    });
    assert.equal(claimed.length, 6);
    const of = (subject: string): ClaimedDelivery =>
      claimed.find((one) => one.delivery.subject === subject)!;
    // Another process took "stale" after this lease ran out; "gone" was deleted (its endpoint was);
    // "twice" was resent and claimed again (a new lease) while the first attempt was in flight.
    await db('webhook_deliveries')
      .where({ id: of('stale').delivery.id })
      .update({ leased_until: now + 99_000 });
    await db('webhook_deliveries')
      .where({ id: of('gone').delivery.id })
      .delete();
    const secondLease = now + 70_000;
    await db('webhook_deliveries')
      .where({ id: of('twice').delivery.id })
      .update({ leased_until: secondLease });

    /** An attempt of the delivery of `subject`, `offset` ms after `now`, under the claim's lease. */
    const settling = (
      subject: string,
      offset: number,
      statusCode: number | null,
      settlement: Settlement,
      lease = of(subject).lease,
    ) => ({
      deliveryId: of(subject).delivery.id,
      lease,
      attempt: attempt(now + offset, statusCode),
      settlement,
    });
    const sql: string[] = [];
    const record = (query: { sql: string }) => sql.push(query.sql);
    db.on('query', record);
    const written = await inTransaction(db, (tx) =>
      new DeliveryStore(tx).settleMany([
        settling('delivered', 1, 204, { status: 'delivered', at: now + 8 }),
        settling('retried', 2, 500, { status: 'pending', nextAttemptAt: now + 5000 }),
        settling('failed', 3, null, { status: 'failed' }),
        settling('stale', 4, 204, { status: 'delivered', at: now + 11 }),
        settling('gone', 5, 204, { status: 'delivered', at: now + 12 }),
        settling('twice', 6, 503, { status: 'pending', nextAttemptAt: now + 9000 }),
        settling('twice', 7, 200, { status: 'delivered', at: now + 14 }, secondLease),
      ]),
    );
    db.off('query', record);
    assert.deepEqual(written, [true, true, true, false, false, false, true]);
    const updates = sql.filter((text) => /^update/i.test(text));
    assert.equal(updates.length, 2, 'one UPDATE per round of distinct deliveries');

    const rows = await db('webhook_deliveries').whereIn(
      'id',
      claimed.map((one) => one.delivery.id),
    );
    const state = (subject: string) => {
      const row = rows.find((one: { subject: string }) => one.subject === subject);
      return {
        status: row.status,
        attempts: Number(row.attempt_count),
        next: Number(row.next_attempt_at),
        deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
        leased: row.leased_until === null ? null : Number(row.leased_until),
        lastStatus: row.last_status_code === null ? null : Number(row.last_status_code),
      };
    };
    const before = of('delivered').delivery.next_attempt_at;
    assert.deepEqual(state('delivered'), {
      status: 'delivered',
      attempts: 1,
      next: before,
      deliveredAt: now + 8,
      leased: null,
      lastStatus: 204,
    });
    assert.deepEqual(state('retried'), {
      status: 'pending',
      attempts: 1,
      next: now + 5000,
      deliveredAt: null,
      leased: null,
      lastStatus: 500,
    });
    assert.deepEqual(state('failed'), {
      status: 'failed',
      attempts: 1,
      next: of('failed').delivery.next_attempt_at,
      deliveredAt: null,
      leased: null,
      lastStatus: null,
    });
    assert.deepEqual(state('stale'), {
      status: 'pending',
      attempts: 0,
      next: of('stale').delivery.next_attempt_at,
      deliveredAt: null,
      leased: now + 99_000,
      lastStatus: null,
    });
    assert.deepEqual(state('twice'), {
      status: 'delivered',
      attempts: 1,
      next: of('twice').delivery.next_attempt_at,
      deliveredAt: now + 14,
      leased: null,
      lastStatus: 200,
    });

    const attempts = await db('webhook_attempts')
      .whereIn(
        'delivery_id',
        claimed.map((one) => one.delivery.id),
      )
      .orderBy('attempted_at');
    assert.deepEqual(
      attempts.map((row: { attempted_at: number | string }) => Number(row.attempted_at) - now),
      [1, 2, 3, 4, 6, 7],
      'every attempt of a delivery that still exists, the stale ones too',
    );
    assert.equal(endpoint.app_id, w.tenant.app.id);
  });
});
