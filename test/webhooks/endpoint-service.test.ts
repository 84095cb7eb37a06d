import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../src/db/rows.js';
import { InvalidFields, NotFoundError, ValidationError } from '../../src/errors.js';
import { DISABLED_BY_OWNER } from '../../src/webhooks/endpoint-service.js';
import { composeWebhooks } from '../../src/webhooks/compose.js';
import { composeMail } from '../../src/mail/compose.js';
import { isEndpointSecret } from '../../src/webhooks/signature.js';
import { testAccounts, testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';

const START = Date.UTC(2026, 10, 1, 9);
const HOUR = 3_600_000;

describeEachDialect('webhook endpoint management', (database) => {
  let clock: ManualClock;
  let tenant: OAuthTenant;

  function management(env: Record<string, string> = {}) {
    const { db } = database();
    const shared = testSharedDependencies(db, {
      clock,
      env: { WEBHOOK_ENDPOINTS_PER_APP: '3', WEBHOOK_EMPLOYERS_PER_ENDPOINT: '2', ...env },
    });
    return {
      shared,
      ...composeWebhooks(shared, {
        mailer: composeMail(shared).mailer,
        accounts: testAccounts(db, clock),
      }),
    };
  }

  function rowOf(id: string): Promise<WebhookEndpointRow> {
    return database().db('webhook_endpoints').where({ id }).first();
  }

  function auditOf(appId: string): Promise<Array<{ type: string; details: string | null }>> {
    return database()
      .db('audit_events')
      .where({ app_id: appId })
      .andWhere('type', 'like', 'webhook.%')
      .orderBy('id');
  }

  beforeEach(async () => {
    clock = new ManualClock(START);
    tenant = await createOAuthTenant(database().db, clock);
  });

  it('registers an endpoint: the secret is returned once and stored only sealed', async () => {
    const { endpoints, shared } = management();
    const { endpoint, secret } = await endpoints.create(
      tenant.app.id,
      {
        url: 'https://receiver.example/hooks?token=abc',
        description: '  ATS sync  ',
        eventTypes: ['interview.event.created.v1', 'interview.event.created.v1'],
        employerIds: [tenant.employer.id],
      },
      { userId: tenant.user.id, ip: '203.0.113.9', requestId: 'req-1' },
    );
    assert.ok(isEndpointSecret(secret));
    assert.equal(endpoint.description, 'ATS sync');
    assert.deepEqual(endpoint.eventTypes, ['interview.event.created.v1']);
    assert.deepEqual(endpoint.employerIds, [tenant.employer.id]);
    assert.equal(endpoint.enabled, true);
    assert.equal(JSON.stringify(endpoint).includes(secret), false, 'the view has no secret');

    const row = await rowOf(endpoint.id);
    assert.equal(row.event_types, ',interview.event.created.v1,');
    assert.equal(row.employer_ids, `,${tenant.employer.id},`);
    for (const value of Object.values(row)) {
      assert.ok(!String(value).includes(secret.slice(6)), 'no column holds the plaintext');
    }
    assert.equal(shared.boxes.webhookSecrets.open(row.secret_sealed), secret);
    assert.equal((await endpoints.get(tenant.app.id, endpoint.id)).url, endpoint.url);

    const [audited] = await auditOf(tenant.app.id);
    assert.equal(audited!.type, 'webhook.endpoint_created');
    assert.ok(!audited!.details!.includes(secret.slice(6)), 'the audit never holds the secret');
    const details = JSON.parse(audited!.details!);
    assert.equal(details.url, 'https://receiver.example/hooks?…', 'a query string is not kept');
    assert.deepEqual(details.event_types, ['interview.event.created.v1']);
  });

  it('refuses bad input field by field and writes nothing', async () => {
    const { endpoints } = management();
    await assert.rejects(
      endpoints.create(tenant.app.id, {
        url: 'ftp://receiver.example',
        description: 'x'.repeat(501),
        eventTypes: ['interview.event.created.v1', 'webhook.test.v1', 'nope'],
        employerIds: ['no-such-employer'],
      }),
      (error: unknown) => {
        assert.ok(error instanceof InvalidFields);
        assert.deepEqual(
          error.problems.map((problem) => problem.field),
          ['url', 'description', 'event_types', 'employer_ids'],
        );
        assert.match(error.message, /"webhook\.test\.v1", "nope"/);
        assert.match(error.message, /no employer with id "no-such-employer"/);
        return true;
      },
    );
    await assert.rejects(
      endpoints.create(tenant.app.id, {
        url: 'https://receiver.example',
        employerIds: [tenant.employer.id, tenant.foreignEmployer.id, 'third'],
      }),
      /at most 2 employers/,
    );
    assert.deepEqual(await endpoints.list(tenant.app.id), []);
    assert.deepEqual(await auditOf(tenant.app.id), []);
  });

  it('keeps to the per-app cap when creations race', async () => {
    const { endpoints } = management();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) =>
        endpoints.create(tenant.app.id, { url: `https://receiver.example/${index}` }),
      ),
    );
    const created = results.filter((result) => result.status === 'fulfilled');
    const refused = results.flatMap((result) =>
      result.status === 'rejected' ? [result.reason as Error] : [],
    );
    assert.equal(created.length, 3);
    assert.equal(refused.length, 5);
    for (const error of refused) {
      assert.ok(error instanceof ValidationError, String(error));
      assert.match(error.message, /at most 3 webhook endpoints/);
    }
    assert.equal((await endpoints.list(tenant.app.id)).length, 3);
    // Another app has a cap of its own.
    await endpoints.create(tenant.publicApp.id, { url: 'https://receiver.example/other' });
  });

  it('rotates: the previous secret keeps signing for the overlap, then the new one alone', async () => {
    const { endpoints, shared } = management({ WEBHOOK_SECRET_OVERLAP_HOURS: '24' });
    const { endpoint, secret: first } = await endpoints.create(tenant.app.id, {
      url: 'https://receiver.example/hooks',
    });
    clock.advance(HOUR);
    const rotated = await endpoints.rotateSecret(tenant.app.id, endpoint.id, {
      userId: tenant.user.id,
    });
    assert.notEqual(rotated.secret, first);
    assert.equal(rotated.endpoint.previousSecretUntil, START + HOUR + 24 * HOUR);
    const row = await rowOf(endpoint.id);
    const box = shared.boxes.webhookSecrets;
    assert.equal(box.open(row.secret_sealed), rotated.secret);
    assert.equal(box.open(row.previous_secret_sealed!), first);
    assert.equal(Number(row.previous_secret_until), START + 25 * HOUR);
    const audited = (await auditOf(tenant.app.id)).at(-1)!;
    assert.equal(audited.type, 'webhook.secret_rotated');
    assert.ok(!audited.details!.includes(first.slice(6)));
    assert.ok(!audited.details!.includes(rotated.secret.slice(6)));

    const { endpoints: noOverlap } = management({ WEBHOOK_SECRET_OVERLAP_HOURS: '0' });
    await noOverlap.rotateSecret(tenant.app.id, endpoint.id);
    const after = await rowOf(endpoint.id);
    assert.equal(after.previous_secret_sealed, null);
    assert.equal(after.previous_secret_until, null);
  });

  it('updates, disables, enables (clearing the failures) and deletes, each audited', async () => {
    const { endpoints } = management();
    const { endpoint } = await endpoints.create(tenant.app.id, { url: 'https://a.example/' });
    const actor = { userId: tenant.user.id };
    const updated = await endpoints.update(
      tenant.app.id,
      endpoint.id,
      { url: 'https://b.example/', eventTypes: ['interview.event.ended.v1'] },
      actor,
    );
    assert.equal(updated.url, 'https://b.example/');
    assert.deepEqual(updated.eventTypes, ['interview.event.ended.v1']);

    const disabled = await endpoints.disable(tenant.app.id, endpoint.id, actor);
    assert.equal(disabled.enabled, false);
    assert.equal(disabled.disabledReason, DISABLED_BY_OWNER);
    await assert.rejects(endpoints.sendTest(tenant.app.id, endpoint.id), /enable it to send/);

    // As the delivery worker leaves an endpoint it disabled.
    await database()
      .db('webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ failing_since: START - HOUR, disabled_reason: 'answered 410 Gone' });
    const enabled = await endpoints.enable(tenant.app.id, endpoint.id, actor);
    assert.equal(enabled.enabled, true);
    const row = await rowOf(endpoint.id);
    assert.equal(row.failing_since, null);
    assert.equal(row.disabled_reason, null);
    assert.equal(row.disabled_at, null);

    await endpoints.remove(tenant.app.id, endpoint.id, actor);
    await assert.rejects(endpoints.get(tenant.app.id, endpoint.id), NotFoundError);
    const audited = await auditOf(tenant.app.id);
    assert.deepEqual(
      audited.map((entry) => entry.type),
      [
        'webhook.endpoint_created',
        'webhook.endpoint_updated',
        'webhook.endpoint_disabled',
        'webhook.endpoint_enabled',
        'webhook.endpoint_deleted',
      ],
    );
    const change = JSON.parse(audited[1]!.details!);
    assert.deepEqual(change.changed, ['url', 'event_types']);
    assert.deepEqual(change.url, { from: 'https://a.example/', to: 'https://b.example/' });
  });

  it("treats another app's endpoint as missing", async () => {
    const { endpoints } = management();
    const { endpoint } = await endpoints.create(tenant.app.id, { url: 'https://a.example/' });
    const other = tenant.publicApp.id;
    await assert.rejects(endpoints.get(other, endpoint.id), NotFoundError);
    await assert.rejects(endpoints.rotateSecret(other, endpoint.id), NotFoundError);
    await assert.rejects(endpoints.remove(other, endpoint.id), NotFoundError);
    await assert.rejects(endpoints.sendTest(other, endpoint.id), NotFoundError);
    await assert.rejects(
      endpoints.update(other, endpoint.id, { url: 'https://x.example/' }),
      NotFoundError,
    );
    await assert.rejects(endpoints.deliveries(other, endpoint.id, { first: 10 }), NotFoundError);
    assert.equal((await endpoints.list(other)).length, 0);
  });

  it('sends a test event to one endpoint, resends it and recovers failed deliveries', async () => {
    const { endpoints } = management();
    const { endpoint } = await endpoints.create(tenant.app.id, {
      url: 'https://a.example/',
      eventTypes: ['interview.event.created.v1'],
    });
    const queued = await endpoints.sendTest(tenant.app.id, endpoint.id, { userId: tenant.user.id });
    assert.ok(queued);
    assert.equal(queued.type, 'webhook.test.v1');
    assert.equal(queued.status, 'pending');
    assert.equal(queued.subject, endpoint.id);
    assert.deepEqual(JSON.parse(queued.data), { endpointId: endpoint.id, appId: tenant.app.id });

    const { db } = database();
    await db('webhook_deliveries')
      .where({ id: queued.id })
      .update({ status: 'failed', attempt_count: 9 });
    const page = await endpoints.deliveries(tenant.app.id, endpoint.id, { first: 10 });
    assert.deepEqual(
      page.deliveries.map((delivery) => delivery.status),
      ['failed'],
    );
    clock.advance(HOUR);
    const resent = await endpoints.resend(tenant.app.id, queued.id, { userId: tenant.user.id });
    assert.equal(resent.status, 'pending');
    assert.equal(resent.message_id, queued.message_id, 'the same webhook-id');

    await db('webhook_deliveries').where({ id: queued.id }).update({ status: 'failed' });
    assert.equal(await endpoints.recoverFailed(tenant.app.id, endpoint.id, START + HOUR), 0);
    assert.equal(await endpoints.recoverFailed(tenant.app.id, endpoint.id, START), 1);
    const recovered: WebhookDeliveryRow = await db('webhook_deliveries')
      .where({ id: queued.id })
      .first();
    assert.equal(recovered.status, 'pending');
    await assert.rejects(
      endpoints.recoverFailed(tenant.app.id, endpoint.id, START + 2 * HOUR),
      /must not be in the future/,
    );
    await assert.rejects(endpoints.resend(tenant.publicApp.id, queued.id), NotFoundError);
    await assert.rejects(endpoints.delivery(tenant.app.id, 999_999), NotFoundError);
    assert.deepEqual((await endpoints.delivery(tenant.app.id, queued.id)).attempts, []);

    assert.deepEqual((await auditOf(tenant.app.id)).map((entry) => entry.type).slice(1), [
      'webhook.test_sent',
      'webhook.delivery_resent',
      'webhook.deliveries_recovered',
      'webhook.deliveries_recovered',
    ]);
  });
});
