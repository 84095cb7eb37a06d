import assert from 'node:assert/strict';
import { isEndpointSecret } from '../../src/webhooks/signature.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { inProcessCli } from './in-process-cli.js';

describeEachDialect('admin CLI: webhook', (database) => {
  let clientId = '';
  let appId = '';

  const { run, json, appOfNewOwner } = inProcessCli(database);

  before(async () => {
    ({ clientId, appId } = await appOfNewOwner('Hooks'));
  });

  it('adds an endpoint (secret once, sealed at rest), lists it and rotates it', async () => {
    const added = await json(
      'webhook',
      'add',
      '--app',
      clientId,
      '--url',
      'https://receiver.example/hooks',
      '--type',
      'interview.event.created.v1',
      '--type',
      'interview.event.ended.v1',
      '--description',
      'ATS',
    );
    assert.ok(isEndpointSecret(added.secret));
    assert.deepEqual(added.endpoint.event_types, [
      'interview.event.created.v1',
      'interview.event.ended.v1',
    ]);
    assert.deepEqual(added.endpoint.employer_ids, []);
    assert.match(added.endpoint.created_at, /^\d{4}-\d\d-\d\dT/);
    const id: string = added.endpoint.id;
    const row = await database().db('webhook_endpoints').where({ id }).first();
    assert.ok(!JSON.stringify(row).includes(added.secret.slice(6)));
    const box = testSharedDependencies(database().db).boxes.webhookSecrets;
    assert.equal(box.open(row.secret_sealed), added.secret);

    const listed = await json('webhook', 'list', '--app', clientId);
    assert.deepEqual(
      listed.endpoints.map((endpoint: { id: string }) => endpoint.id),
      [id],
    );
    assert.ok(!JSON.stringify(listed).includes('whsec_'), 'list never prints a secret');
    const human = await run('webhook', 'list', '--app', clientId);
    assert.match(human.stdout, /url: +https:\/\/receiver\.example\/hooks/);
    assert.match(human.stdout, /state: +enabled/);

    const rotated = await json('webhook', 'rotate', '--app', clientId, '--endpoint', id);
    assert.ok(isEndpointSecret(rotated.secret));
    assert.notEqual(rotated.secret, added.secret);
    assert.match(rotated.endpoint.previous_secret_until, /^\d{4}-\d\d-\d\dT/);
    const after = await database().db('webhook_endpoints').where({ id }).first();
    assert.equal(box.open(after.previous_secret_sealed), added.secret);
  });

  it('sends a test event, lists deliveries and attempts, resends and recovers', async () => {
    const { endpoint } = await json(
      'webhook',
      'add',
      '--app',
      clientId,
      '--url',
      'https://receiver.example/test',
    );
    const sent = await json('webhook', 'test', '--app', clientId, '--endpoint', endpoint.id);
    assert.equal(sent.delivery.type, 'webhook.test.v1');
    assert.equal(sent.delivery.status, 'pending');
    assert.match(sent.delivery.webhook_id, /^msg_/);

    const listed = await json(
      'webhook',
      'deliveries',
      '--app',
      clientId,
      '--endpoint',
      endpoint.id,
    );
    assert.deepEqual(
      listed.deliveries.map((delivery: { id: number }) => delivery.id),
      [sent.delivery.id],
    );
    assert.equal(listed.next_cursor, null);

    const { db } = database();
    await db('webhook_attempts').insert({
      delivery_id: sent.delivery.id,
      attempted_at: Date.now(),
      status_code: 503,
      latency_ms: 12,
      response_excerpt: 'busy',
      error: null,
    });
    await db('webhook_deliveries')
      .where({ id: sent.delivery.id })
      .update({ status: 'failed', attempt_count: 1, last_status_code: 503 });
    const attempts = await json(
      'webhook',
      'attempts',
      '--app',
      clientId,
      '--delivery',
      String(sent.delivery.id),
    );
    assert.equal(attempts.delivery.status, 'failed');
    assert.deepEqual(
      attempts.attempts.map((attempt: { status_code: number }) => attempt.status_code),
      [503],
    );
    const failedOnly = await json(
      'webhook',
      'deliveries',
      '--app',
      clientId,
      '--endpoint',
      endpoint.id,
      '--status',
      'failed',
    );
    assert.equal(failedOnly.deliveries.length, 1);

    const resent = await json(
      'webhook',
      'resend',
      '--app',
      clientId,
      '--delivery',
      String(sent.delivery.id),
    );
    assert.equal(resent.delivery.status, 'pending');
    assert.equal(resent.delivery.webhook_id, sent.delivery.webhook_id);

    await db('webhook_deliveries').where({ id: sent.delivery.id }).update({ status: 'failed' });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const recovered = await json(
      'webhook',
      'recover',
      '--app',
      clientId,
      '--endpoint',
      endpoint.id,
      '--since',
      since,
    );
    assert.equal(recovered.recovered, 1);
    const audited = await db('audit_events')
      .where({ app_id: appId })
      .andWhere('type', 'like', 'webhook.%')
      .whereNull('actor_user_id')
      .pluck('type');
    assert.ok(audited.includes('webhook.deliveries_recovered'));
    assert.ok(audited.includes('webhook.delivery_resent'));
    assert.ok(audited.includes('webhook.test_sent'));
  });

  it('disables, enables and removes; refuses bad input with exit code 1', async () => {
    const { endpoint } = await json(
      'webhook',
      'add',
      '--app',
      clientId,
      '--url',
      'https://receiver.example/state',
    );
    const disabled = await json('webhook', 'disable', '--app', clientId, '--endpoint', endpoint.id);
    assert.equal(disabled.endpoint.enabled, false);
    assert.equal(disabled.endpoint.disabled_reason, 'disabled by its owner');
    const refusedTest = await run('webhook', 'test', '--app', clientId, '--endpoint', endpoint.id);
    assert.equal(refusedTest.code, 1);
    assert.match(refusedTest.stderr, /the endpoint is disabled; enable it to send a test event/);
    const enabled = await json('webhook', 'enable', '--app', clientId, '--endpoint', endpoint.id);
    assert.equal(enabled.endpoint.enabled, true);
    const removed = await json('webhook', 'remove', '--app', clientId, '--endpoint', endpoint.id);
    assert.equal(removed.removed, true);
    const gone = await run('webhook', 'rotate', '--app', clientId, '--endpoint', endpoint.id);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /no webhook endpoint with id/);

    const noApp = await run('webhook', 'list', '--app', 'nope');
    assert.equal(noApp.code, 1);
    assert.match(noApp.stderr, /no app with client id nope/);
    const badType = await run(
      'webhook',
      'add',
      '--app',
      clientId,
      '--url',
      'https://receiver.example/',
      '--type',
      'interview.nope.v1',
    );
    assert.equal(badType.code, 1);
    assert.match(badType.stderr, /unknown event type "interview\.nope\.v1"/);
    const badSince = await run(
      'webhook',
      'recover',
      '--app',
      clientId,
      '--endpoint',
      endpoint.id,
      '--since',
      'yesterday',
    );
    assert.equal(badSince.code, 1);
    assert.match(badSince.stderr, /--since must be an ISO 8601 time/);
    const badDelivery = await run('webhook', 'resend', '--app', clientId, '--delivery', 'x');
    assert.equal(badDelivery.code, 1);
    const missingOption = await run('webhook', 'add', '--app', clientId);
    assert.equal(missingOption.code, 2);
  });
});
