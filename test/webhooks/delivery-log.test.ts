import assert from 'node:assert/strict';
import { register } from 'prom-client';
import { ManualClock } from '../../src/clock.js';
import { ValidationError } from '../../src/errors.js';
import { EndpointStore } from '../../src/webhooks/endpoint-store.js';
import { describeEachDialect } from '../support/databases.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { deliverySuite, eventually, webhookWorld } from './delivery-fixtures.js';

const DAY = 86_400_000;

describeEachDialect('webhook delivery log', (database) => {
  const suite = deliverySuite(database);
  const { start, attemptsOf } = suite;

  it('lists an endpoint’s deliveries newest first, page by page, for its app only', async () => {
    const w = await webhookWorld(database().db);
    const { row } = await w.endpoint(suite.receiver.url('/listed'));
    for (let i = 0; i < 5; i++) await w.notify(`e${i}`);
    const log = w.webhooks.deliveryLog;
    const appId = w.tenant.app.id;
    const first = await log.list(appId, row.id, { first: 2 });
    assert.deepEqual(
      first.deliveries.map((d) => d.subject),
      ['e4', 'e3'],
    );
    const second = await log.list(appId, row.id, { first: 2, after: first.nextCursor });
    assert.deepEqual(
      second.deliveries.map((d) => d.subject),
      ['e2', 'e1'],
    );
    const last = await log.list(appId, row.id, { first: 2, after: second.nextCursor });
    assert.deepEqual(
      last.deliveries.map((d) => d.subject),
      ['e0'],
    );
    assert.equal(last.nextCursor, null);
    assert.equal(
      (await log.list(appId, row.id, { first: 10, status: 'failed' })).deliveries.length,
      0,
    );

    const other = await createOAuthTenant(database().db, w.shared.clock, 'grace');
    const id = first.deliveries[0]!.id;
    assert.equal((await log.list(other.app.id, row.id, { first: 10 })).deliveries.length, 0);
    assert.equal(await log.find(other.app.id, id), undefined);
    assert.deepEqual(await log.attempts(other.app.id, [id]), new Map());
    assert.equal(await log.resend(other.app.id, id, Date.now()), undefined);
    assert.equal((await log.find(appId, id))!.subject, 'e4');

    await assert.rejects(log.list(appId, row.id, { first: 0 }), ValidationError);
    await assert.rejects(log.list(appId, row.id, { first: 101 }), ValidationError);
    await assert.rejects(log.list(appId, row.id, { first: 1, after: 'nonsense' }), ValidationError);
  });

  it('resends a delivered delivery at once with its webhook-id', async () => {
    const w = await webhookWorld(database().db, { env: { WEBHOOK_POLL_MS: '60000' } });
    const { secret } = await w.endpoint(suite.receiver.url('/again'));
    suite.receiver.route('/again', { secrets: [secret] });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.status === 'delivered');
    const [delivery] = await w.deliveries();
    const resent = await w.webhooks.deliveryLog.resend(w.tenant.app.id, delivery!.id, Date.now());
    assert.equal(resent!.status, 'pending');
    assert.equal(resent!.attempt_count, 0);
    // The poll is a minute away: the resend itself wakes the worker.
    await eventually(() => suite.receiver.of('/again').length === 2, 3000);
    const [first, second] = suite.receiver.of('/again');
    assert.equal(second!.webhookId, first!.webhookId);
    assert.ok(second!.verified);
    await eventually(async () => (await w.deliveries())[0]?.status === 'delivered');
    assert.equal((await attemptsOf(w, delivery!.id)).length, 2);
  });

  it('recovers the failed deliveries of an endpoint since a given time', async () => {
    const w = await webhookWorld(database().db, { env: { WEBHOOK_RETRY_SCHEDULE: '10ms' } });
    const { secret, row } = await w.endpoint(suite.receiver.url('/recover'));
    let healthy = false;
    suite.receiver.route('/recover', {
      secrets: [secret],
      answer: () => ({ status: healthy ? 200 : 500 }),
    });
    start(w);
    for (let i = 0; i < 3; i++) await w.notify(`e${i}`);
    await eventually(async () => (await w.deliveries()).every((d) => d.status === 'failed'));
    const deliveries = await w.deliveries();
    // The oldest one is older than `since`.
    await database()
      .db('webhook_deliveries')
      .where({ id: deliveries[0]!.id })
      .update({ created_at: Date.now() - DAY });
    healthy = true;
    const log = w.webhooks.deliveryLog;
    const recovered = await log.recoverFailed(
      w.tenant.app.id,
      row.id,
      Date.now() - 60_000,
      Date.now(),
    );
    assert.equal(recovered, 2);
    await eventually(
      async () => (await w.deliveries()).filter((d) => d.status === 'delivered').length === 2,
    );
    const states = (await w.deliveries()).map((d) => d.status);
    assert.deepEqual(states, ['failed', 'delivered', 'delivered']);
    assert.equal(await log.recoverFailed(w.tenant.app.id, row.id, 0, Date.now()), 1);
  });

  it('disables an endpoint that failed every attempt for WEBHOOK_DISABLE_AFTER_HOURS and mails its owner', async () => {
    const clock = new ManualClock(Date.now());
    const w = await webhookWorld(database().db, {
      clock,
      env: { WEBHOOK_RETRY_SCHEDULE: '1m,1m,1m', WEBHOOK_DISABLE_AFTER_HOURS: '120' },
    });
    const { row, secret } = await w.endpoint(suite.receiver.url('/failing'));
    suite.receiver.route('/failing', { secrets: [secret], answer: () => ({ status: 500 }) });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.attempt_count === 1);
    const endpoints = new EndpointStore(database().db);
    const failingSince = (await endpoints.findById(row.id))!.failing_since;
    assert.ok(failingSince !== null);

    clock.advance(119 * 3_600_000);
    await eventually(async () => (await w.deliveries())[0]?.attempt_count === 2);
    assert.equal((await endpoints.findById(row.id))!.enabled, true);
    assert.equal((await endpoints.findById(row.id))!.failing_since, failingSince);

    clock.advance(3_600_000);
    await eventually(async () => (await w.deliveries())[0]?.attempt_count === 3);
    const disabled = (await endpoints.findById(row.id))!;
    assert.equal(disabled.enabled, false);
    assert.match(disabled.disabled_reason!, /every delivery attempt failed since/);
    await eventually(() => w.mailer.sent.length === 1);
    const [mail] = w.mailer.sent;
    assert.equal(mail!.to, w.tenant.user.email);
    assert.match(mail!.subject, /Webhook endpoint disabled/);
    assert.ok(mail!.text.includes(row.url));
    assert.ok(!mail!.text.includes(secret), 'never the secret');
  });

  it('purges delivered and failed deliveries past the retention, with their attempts', async () => {
    const w = await webhookWorld(database().db, { env: { WEBHOOK_RETENTION_DAYS: '30' } });
    const { secret } = await w.endpoint(suite.receiver.url('/old'));
    suite.receiver.route('/old', { secrets: [secret] });
    const delivering = start(w);
    for (let i = 0; i < 3; i++) await w.notify(`e${i}`);
    await eventually(async () => (await w.deliveries()).every((d) => d.status === 'delivered'));
    const [old, recent, pendingOld] = await w.deliveries();
    const db = database().db;
    await db('webhook_deliveries')
      .whereIn('id', [old!.id, pendingOld!.id])
      .update({ created_at: Date.now() - 31 * DAY });
    await db('webhook_deliveries')
      .where({ id: pendingOld!.id })
      .update({ status: 'pending', next_attempt_at: Date.now() + DAY });
    assert.equal(await delivering.purgeNow(), 1);
    const left = (await w.deliveries()).map((d) => d.id);
    assert.deepEqual(left, [recent!.id, pendingOld!.id]);
    assert.equal((await db('webhook_attempts').where({ delivery_id: old!.id })).length, 0);
  });

  it('reports deliveries, attempt latency and the queue on /metrics', async () => {
    const w = await webhookWorld(database().db);
    const { secret } = await w.endpoint(suite.receiver.url('/metered'));
    suite.receiver.route('/metered', {
      secrets: [secret],
      answer: () => ({ status: 200, delayMs: 1500 }),
    });
    const db = database().db;
    await w.notify('e1');
    await w.notify('e2');
    const [due, later] = await w.deliveries();
    await db('webhook_deliveries')
      .where({ id: due!.id })
      .update({ next_attempt_at: Date.now() - 30_000 });
    await db('webhook_deliveries')
      .where({ id: later!.id })
      .update({ next_attempt_at: Date.now() + 3_600_000 });
    const before = counterValue(await register.metrics(), 'delivered');
    start(w);
    await eventually(() => suite.receiver.of('/metered').length === 1);
    // The first is being answered (slowly), the second not due: both still to deliver, as the
    // worker's reading of the queue (every WEBHOOK_QUEUE_READ_MS) shows them.
    const gauge = (text: string, name: string) =>
      Number(new RegExp(`^${name} ([\\d.e+]+)`, 'm').exec(text)?.[1]);
    let queued = '';
    await eventually(async () => {
      queued = await register.metrics();
      return gauge(queued, 'webhook_outbox_depth') === 2;
    });
    const age = gauge(queued, 'webhook_outbox_oldest_due_age_seconds');
    assert.ok(age >= 30 && age < 60, `oldest due for ${age} s`);

    await db('webhook_deliveries').where({ id: later!.id }).update({ next_attempt_at: Date.now() });
    await eventually(
      async () => (await w.deliveries()).every((d) => d.status === 'delivered'),
      6000,
    );
    const text = await register.metrics();
    assert.equal(counterValue(text, 'delivered') - before, 2);
    await eventually(async () => gauge(await register.metrics(), 'webhook_outbox_depth') === 0);
    assert.match(text, /^webhook_attempt_duration_seconds_bucket\{le="2.5"\} [1-9]/m);
  });
});

function counterValue(metrics: string, outcome: string): number {
  const pattern = new RegExp(
    `^webhook_deliveries_total\\{type="interview.event.created.v1",outcome="${outcome}"\\} (\\d+)`,
    'm',
  );
  return Number(pattern.exec(metrics)?.[1] ?? 0);
}
