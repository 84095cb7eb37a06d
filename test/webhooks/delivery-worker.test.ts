import assert from 'node:assert/strict';
import type { WebhookAttemptRow } from '../../src/db/rows.js';
import { EndpointStore } from '../../src/webhooks/endpoint-store.js';
import { newEndpointSecret } from '../../src/webhooks/signature.js';
import { describeEachDialect } from '../support/databases.js';
import {
  deliverySuite,
  eventually,
  sleep,
  webhookWorld,
  type WebhookWorld,
} from './delivery-fixtures.js';

describeEachDialect('webhook delivery worker', (database) => {
  const suite = deliverySuite(database);
  const { start, attemptsOf } = suite;

  async function world(env: Record<string, string> = {}): Promise<WebhookWorld> {
    return webhookWorld(database().db, { env });
  }

  it('delivers each change once to each endpoint, verified and parsed as a partner would', async () => {
    // A poll far off: only the wake after each commit can deliver within the test.
    const w = await world({ WEBHOOK_POLL_MS: '60000' });
    const endpoints = await Promise.all(
      ['/a', '/b', '/c'].map(async (path) => {
        const endpoint = await w.endpoint(suite.receiver.url(path));
        suite.receiver.route(path, { secrets: [endpoint.secret] });
        return endpoint;
      }),
    );
    start(w);
    const subjects = Array.from({ length: 10 }, (_, i) => `event-${i}`);
    for (const subject of subjects) await w.notify(subject);
    await eventually(() => suite.receiver.received.length === 30, 5000, '30 deliveries');
    await sleep(100);
    assert.equal(suite.receiver.received.length, 30, 'nothing delivered twice');
    for (const entry of suite.receiver.received) {
      assert.ok(entry.verified, entry.verifyError);
      const event = entry.event!;
      assert.equal(event.specversion, '1.0');
      assert.equal(event.id, entry.webhookId);
      assert.equal(event.idempotencykey, entry.webhookId);
      assert.equal(event.source, 'https://api.example.test');
      assert.equal(event.type, 'interview.event.created.v1');
      assert.equal(event.datacontenttype, 'application/json');
      assert.equal(event.sequence, '0000000001');
      assert.deepEqual(event.data, { eventId: event.subject, employerId: w.tenant.employer.id });
      assert.equal(entry.headers['content-type'], 'application/cloudevents+json; charset=utf-8');
      assert.match(String(entry.headers['user-agent']), /hiring-partner-api-webhooks/);
    }
    for (const { row } of endpoints) {
      const path = new URL(row.url).pathname;
      const subjectsSeen = suite.receiver.of(path).map((entry) => entry.event!.subject);
      assert.deepEqual(subjectsSeen.sort(), [...subjects].sort());
    }
    // One webhook-id per change, the same for every endpoint.
    assert.equal(new Set(suite.receiver.received.map((entry) => entry.webhookId)).size, 10);
    await eventually(async () => (await w.deliveries()).every((row) => row.status === 'delivered'));
    const [first] = await w.deliveries();
    const attempts = await attemptsOf(w, first!.id);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]!.status_code, 200);
    assert.equal(attempts[0]!.response_excerpt, 'ok');
    assert.equal(attempts[0]!.error, null);
  });

  it('signs with both secrets during a rotation, then with the new one only', async () => {
    const w = await world();
    const { row, secret: oldSecret } = await w.endpoint(suite.receiver.url('/rotated'));
    const newSecret = newEndpointSecret();
    const box = w.shared.boxes.webhookSecrets;
    const rotate = (until: number) =>
      database()
        .db('webhook_endpoints')
        .where({ id: row.id })
        .update({
          secret_sealed: box.seal(newSecret),
          previous_secret_sealed: box.seal(oldSecret),
          previous_secret_until: until,
        });
    await rotate(Date.now() + 60_000);
    // A receiver still on the old secret, one already on the new: both verify every delivery.
    suite.receiver.route('/rotated', { secrets: [oldSecret, newSecret] });
    start(w);
    await w.notify('during-overlap');
    await eventually(() => suite.receiver.received.length === 1);
    const during = suite.receiver.received[0]!;
    assert.ok(during.verified, during.verifyError);
    assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);

    await rotate(Date.now() - 1);
    suite.receiver.route('/rotated', { secrets: [newSecret] });
    await w.notify('after-overlap');
    await eventually(() => suite.receiver.received.length === 2);
    const after = suite.receiver.received[1]!;
    assert.ok(after.verified, after.verifyError);
    assert.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
  });

  it('retries on the schedule and delivers once the endpoint answers', async () => {
    const w = await world({ WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms' });
    const { secret } = await w.endpoint(suite.receiver.url('/flaky'));
    suite.receiver.route('/flaky', {
      secrets: [secret],
      answer: (n) => (n < 2 ? { status: 500, body: `failure ${n}` } : { status: 204 }),
    });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.status === 'delivered');
    const [delivery] = await w.deliveries();
    assert.equal(delivery!.attempt_count, 3);
    assert.equal(new Set(suite.receiver.received.map((entry) => entry.webhookId)).size, 1);
    assert.ok(suite.receiver.received.every((entry) => entry.verified));
    const attempts = await attemptsOf(w, delivery!.id);
    assert.deepEqual(
      attempts.map((attempt) => [attempt.status_code, attempt.response_excerpt]),
      [
        [500, 'failure 0'],
        [500, 'failure 1'],
        [204, ''],
      ],
    );
    // The pauses follow the schedule (50 ms ± 20 %), measured at the suite.receiver.
    const gaps = suite.receiver.received
      .slice(1)
      .map((entry, i) => entry.at - suite.receiver.received[i]!.at);
    for (const gap of gaps) assert.ok(gap >= 35, `retried after ${gap} ms`);
    const endpoint = await new EndpointStore(database().db).findById(delivery!.endpoint_id);
    assert.equal(endpoint!.failing_since, null, 'a success ends the failing period');
  });

  it('fails a delivery after the last pause of its schedule', async () => {
    const w = await world({ WEBHOOK_RETRY_SCHEDULE: '20ms,20ms' });
    const { secret, row } = await w.endpoint(suite.receiver.url('/down'));
    suite.receiver.route('/down', { secrets: [secret], answer: () => ({ status: 502 }) });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.status === 'failed');
    const [delivery] = await w.deliveries();
    assert.equal(delivery!.attempt_count, 3);
    assert.equal(suite.receiver.of('/down').length, 3);
    const endpoint = await new EndpointStore(database().db).findById(row.id);
    assert.ok(endpoint!.failing_since !== null);
    assert.equal(endpoint!.enabled, true, 'failing for a moment does not disable');
  });

  it('disables an endpoint that answers 410 and sends it nothing more', async () => {
    // One at a time, so that the later deliveries find the endpoint disabled.
    const w = await world({ WEBHOOK_CONCURRENCY_PER_ENDPOINT: '1' });
    const { secret, row } = await w.endpoint(suite.receiver.url('/gone'));
    suite.receiver.route('/gone', { secrets: [secret], answer: () => ({ status: 410 }) });
    await w.notify('e1');
    await w.notify('e2');
    await w.notify('e3');
    start(w);
    await eventually(async () => (await w.deliveries()).every((d) => d.status === 'failed'));
    assert.equal(suite.receiver.of('/gone').length, 1);
    const endpoint = await new EndpointStore(database().db).findById(row.id);
    assert.equal(endpoint!.enabled, false);
    assert.match(endpoint!.disabled_reason!, /410 Gone/);
    assert.ok(endpoint!.disabled_at! > 0);
    const deliveries = await w.deliveries();
    const notSent = [];
    for (const delivery of deliveries) {
      const attempts: WebhookAttemptRow[] = await attemptsOf(w, delivery.id);
      assert.equal(attempts.length, 1);
      if (attempts[0]!.status_code === null) notSent.push(attempts[0]!.error);
    }
    assert.equal(notSent.length, 2);
    for (const error of notSent) assert.match(error!, /endpoint is disabled/);
    assert.equal(w.mailer.sent.length, 0, 'the receiver asked for it: no mail');
  });

  it('waits for Retry-After on 429', async () => {
    const w = await world({ WEBHOOK_RETRY_SCHEDULE: '20ms,20ms' });
    const { secret } = await w.endpoint(suite.receiver.url('/busy'));
    suite.receiver.route('/busy', {
      secrets: [secret],
      answer: (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }),
    });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.status === 'delivered', 5000);
    const [first, second] = suite.receiver.of('/busy');
    assert.ok(second!.at - first!.at >= 950, `retried after ${second!.at - first!.at} ms`);
    assert.equal(second!.webhookId, first!.webhookId);
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const w = await world({ WEBHOOK_RETRY_SCHEDULE: '1h' });
    const { secret } = await w.endpoint(suite.receiver.url('/moved'));
    suite.receiver.route('/moved', {
      secrets: [secret],
      answer: () => ({ status: 307, headers: { location: suite.receiver.url('/elsewhere') } }),
    });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.attempt_count === 1);
    await sleep(100);
    assert.equal(suite.receiver.of('/elsewhere').length, 0);
    const [delivery] = await w.deliveries();
    assert.equal(delivery!.status, 'pending');
    assert.equal(delivery!.last_status_code, 307);
    assert.ok(delivery!.next_attempt_at > Date.now() + 40 * 60_000);
  });

  it('gives up on an answer that does not come within WEBHOOK_TIMEOUT_MS', async () => {
    const w = await world({ WEBHOOK_TIMEOUT_MS: '300', WEBHOOK_RETRY_SCHEDULE: '1h' });
    const { secret } = await w.endpoint(suite.receiver.url('/slow'));
    suite.receiver.route('/slow', { secrets: [secret], answer: () => ({ hang: true }) });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.attempt_count === 1, 3000);
    const [delivery] = await w.deliveries();
    const [attempt] = await attemptsOf(w, delivery!.id);
    assert.equal(attempt!.status_code, null);
    assert.match(attempt!.error!, /no complete answer within 300 ms/);
    assert.ok(attempt!.latency_ms >= 290 && attempt!.latency_ms < 1000, `${attempt!.latency_ms}`);
    assert.equal(delivery!.status, 'pending');
  });

  it('keeps the first KiB of an answer and stops reading the rest', async () => {
    const w = await world();
    const { secret } = await w.endpoint(suite.receiver.url('/chatty'));
    suite.receiver.route('/chatty', {
      secrets: [secret],
      answer: () => ({ endless: true, status: 200 }),
    });
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.status === 'delivered', 3000);
    const [delivery] = await w.deliveries();
    const [attempt] = await attemptsOf(w, delivery!.id);
    assert.equal(attempt!.response_excerpt, 'x'.repeat(1024));
    assert.equal(attempt!.error, null);
    assert.ok(attempt!.latency_ms < 900, 'did not wait for the timeout');
  });

  it('records a refused connection as a failed attempt with its reason', async () => {
    const w = await world({ WEBHOOK_RETRY_SCHEDULE: '1h' });
    // Port 9 (discard) on loopback: nobody listens.
    await w.endpoint('http://127.0.0.1:9/nobody');
    start(w);
    await w.notify('e1');
    await eventually(async () => (await w.deliveries())[0]?.attempt_count === 1);
    const [delivery] = await w.deliveries();
    const [attempt] = await attemptsOf(w, delivery!.id);
    assert.equal(attempt!.status_code, null);
    assert.match(attempt!.error!, /ECONNREFUSED/);
  });
});
