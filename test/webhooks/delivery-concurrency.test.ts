import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { ManualClock } from '../../src/clock.js';
import type { RunningDelivery } from '../../src/webhooks/compose.js';
import { postDelivery } from '../../src/webhooks/delivery-request.js';
import { DeliveryStore } from '../../src/webhooks/delivery-store.js';
import { signedDelivery } from '../../src/webhooks/signed-delivery.js';
import { openDatabase } from '../../src/db/database.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import {
  composedWorld,
  eventually,
  FAST_WEBHOOKS,
  sleep,
  startReceiver,
  webhookWorld,
  type Receiver,
  type WebhookWorld,
} from './delivery-fixtures.js';

describeEachDialect('webhook delivery across endpoints and processes', (database) => {
  let receiver: Receiver;
  let running: RunningDelivery[] = [];
  let cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    receiver = await startReceiver();
  });

  afterEach(async () => {
    await Promise.all(running.map((delivery) => delivery.stop()));
    running = [];
    for (const cleanup of cleanups) await cleanup();
    cleanups = [];
    await receiver.close();
    // Each test's workers see only its deliveries.
    await database().db('webhook_deliveries').delete();
  });

  function start(world: WebhookWorld): RunningDelivery {
    const delivery = world.webhooks.startDelivering();
    running.push(delivery);
    return delivery;
  }

  it('a hanging endpoint does not delay the deliveries of another', async () => {
    const w = await webhookWorld(database().db, {
      env: {
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_CONCURRENCY: '6',
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
        WEBHOOK_RETRY_SCHEDULE: '1h',
      },
    });
    const dead = await w.endpoint(receiver.url('/dead'));
    receiver.route('/dead', { secrets: [dead.secret], answer: () => ({ hang: true }) });
    // Everything is recorded before the second endpoint exists: the dead one's rows come first.
    for (let i = 0; i < 10; i++) await w.notify(`early-${i}`);
    const alive = await w.endpoint(receiver.url('/alive'));
    receiver.route('/alive', { secrets: [alive.secret] });
    start(w);
    await eventually(() => receiver.of('/dead').length === 2, 2000, 'the dead endpoint at its cap');
    const started = Date.now();
    for (let i = 0; i < 10; i++) await w.notify(`late-${i}`);
    await eventually(() => receiver.of('/alive').length === 10, 2000, "the live endpoint's");
    assert.ok(Date.now() - started < 2000);
    assert.ok(receiver.of('/alive').every((entry) => entry.verified));
    assert.equal(receiver.of('/dead').length, 2, 'no more than its cap to the dead endpoint');
  });

  it('sends a delivery again, with the same webhook-id, once a crashed process lease runs out', async () => {
    const clock = new ManualClock(Date.now());
    const w = await webhookWorld(database().db, { clock, env: { WEBHOOK_TIMEOUT_MS: '3000' } });
    const { secret } = await w.endpoint(receiver.url('/crash'));
    receiver.route('/crash', { secrets: [secret] });
    await w.notify('e1');

    // A process claims the delivery, sends it, and dies before recording the answer.
    const store = new DeliveryStore(database().db);
    const now = clock.now();
    const [claimed] = await store.claim({
      now,
      lease: now + 31_000,
      limit: 10,
      busyEndpoints: [],
      freeSlotsOf: () => 1,
    });
    assert.ok(claimed);
    const url = new URL(claimed.endpoint.url);
    const agent = new Agent();
    const sent = signedDelivery(
      claimed,
      w.shared.config.apiUrl,
      w.shared.boxes.webhookSecrets,
      now,
    );
    const answer = await postDelivery({ url, ...sent, agent, timeoutMs: 1000 });
    agent.destroy();
    assert.equal(answer.statusCode, 200, answer.error ?? '');

    start(w);
    await sleep(200);
    assert.equal(receiver.of('/crash').length, 1, 'not while the lease holds');
    clock.advance(32_000);
    await eventually(() => receiver.of('/crash').length === 2, 2000, 'the second send');
    const [first, second] = receiver.of('/crash');
    assert.equal(second!.webhookId, first!.webhookId);
    assert.equal(second!.body, first!.body, 'the same envelope, byte for byte');
    assert.ok(first!.verified && second!.verified);
    await eventually(async () => (await w.deliveries())[0]?.status === 'delivered');
  });

  it('two processes share the work and never send one delivery twice at once', async () => {
    const env = {
      WEBHOOK_CONCURRENCY: '8',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '3',
    };
    const w1 = await webhookWorld(database().db, { env });
    // The other process has a database handle (a pool, on SQLite a writer) of its own.
    const otherDb = openDatabase(database().config, silentLogger);
    cleanups.push(() => otherDb.destroy());
    const w2 = composedWorld(
      testSharedDependencies(otherDb, { env: { ...FAST_WEBHOOKS, ...env } }),
      w1.tenant,
    );
    const paths = ['/p0', '/p1', '/p2', '/p3'];
    for (const path of paths) {
      const { secret } = await w1.endpoint(receiver.url(path));
      receiver.route(path, {
        secrets: [secret],
        answer: (n) => ({ status: 200, delayMs: n % 5 }),
      });
    }
    for (let i = 0; i < 40; i++) await w1.notify(`e${i}`);
    start(w1);
    start(w2);
    await eventually(() => receiver.received.length >= 160, 10_000, '160 deliveries');
    await eventually(async () =>
      (await w1.deliveries()).every((row) => row.status === 'delivered'),
    );
    await sleep(100);
    assert.equal(receiver.maxInFlightPerId, 1);
    assert.equal(receiver.received.length, 160, 'each delivery exactly once');
    const keys = new Set(receiver.received.map((entry) => `${entry.path} ${entry.webhookId}`));
    assert.equal(keys.size, 160);
    assert.ok(receiver.received.every((entry) => entry.verified));
  });

  it('gives back the lease of an attempt abandoned at shutdown', async () => {
    const w1 = await webhookWorld(database().db, { env: { WEBHOOK_TIMEOUT_MS: '10000' } });
    const { secret } = await w1.endpoint(receiver.url('/stuck'));
    receiver.route('/stuck', {
      secrets: [secret],
      answer: (n) => (n === 0 ? { hang: true } : { status: 200 }),
    });
    await w1.notify('e1');
    const first = start(w1);
    await eventually(() => receiver.of('/stuck').length === 1);
    const stopped = Date.now();
    await first.stop();
    assert.ok(Date.now() - stopped < 2000, 'stopping waits only its grace period');
    const [row] = await w1.deliveries();
    assert.equal(row!.leased_until, null);
    assert.equal(row!.status, 'pending');
    // Another process takes it at once, not after the lease would have run out.
    start(composedWorld(w1.shared, w1.tenant));
    await eventually(() => receiver.of('/stuck').length === 2, 2000);
    assert.equal(receiver.of('/stuck')[1]!.webhookId, receiver.of('/stuck')[0]!.webhookId);
  });
});
