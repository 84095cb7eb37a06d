import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { inTransaction } from '../../src/db/transactions.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../src/db/rows.js';
import { EndpointStore } from '../../src/webhooks/endpoint-store.js';
import { storedFilter } from '../../src/webhooks/filters.js';
import { StoredWebhookOutbox } from '../../src/webhooks/outbox.js';
import type { WebhookNotice } from '../../src/webhooks/notice.js';
import { describeEachDialect } from '../support/databases.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { ManualClock } from '../../src/clock.js';

describeEachDialect('webhook outbox', (database) => {
  const outbox = new StoredWebhookOutbox();

  async function tenantWithEndpoints(
    filters: Array<{ types?: string[]; employers?: string[]; enabled?: boolean }>,
  ) {
    const { db } = database();
    const tenant = await createOAuthTenant(db, new ManualClock(Date.UTC(2026, 10, 1)));
    const endpoints: WebhookEndpointRow[] = filters.map((filter, index) => ({
      id: randomUUID(),
      app_id: tenant.app.id,
      url: `https://receiver.example/${index}`,
      description: null,
      event_types: storedFilter(filter.types ?? []),
      employer_ids: storedFilter(filter.employers ?? []),
      enabled: filter.enabled ?? true,
      disabled_reason: null,
      disabled_at: null,
      secret_sealed: 'sealed',
      previous_secret_sealed: null,
      previous_secret_until: null,
      failing_since: null,
      created_at: index,
      updated_at: index,
    }));
    for (const row of endpoints) await new EndpointStore(db).insert(row);
    return { tenant, endpoints };
  }

  function notice(
    appId: string,
    employerId: string | null,
    type: WebhookNotice['type'],
    subject: string,
  ): WebhookNotice {
    return { appId, employerId, type, subject, time: 1_000, data: { eventId: subject } };
  }

  async function deliveriesOf(appId: string): Promise<WebhookDeliveryRow[]> {
    return database().db('webhook_deliveries').where({ app_id: appId }).orderBy('id');
  }

  it('writes one pending delivery per enabled endpoint whose filters take the change', async () => {
    const { db } = database();
    const { tenant, endpoints } = await tenantWithEndpoints([
      {},
      { types: ['interview.event.created.v1', 'interview.event.cancelled.v1'] },
      { types: ['interview.interviewee.checked_in.v1'] },
      { employers: ['another-employer'] },
      { enabled: false },
    ]);
    const employerId = tenant.employer.id;
    await inTransaction(db, (tx) =>
      outbox.record(notice(tenant.app.id, employerId, 'interview.event.created.v1', 'e1'), tx),
    );
    const rows = await deliveriesOf(tenant.app.id);
    assert.deepEqual(
      rows.map((row) => row.endpoint_id).sort(),
      [endpoints[0]!.id, endpoints[1]!.id].sort(),
    );
    for (const row of rows) {
      assert.equal(row.status, 'pending');
      assert.equal(Number(row.attempt_count), 0);
      assert.equal(Number(row.sequence), 1);
      assert.equal(Number(row.next_attempt_at), 1_000);
      assert.equal(row.message_id, rows[0]!.message_id);
      assert.match(row.message_id, /^msg_[A-Za-z0-9_-]{32}$/);
      assert.deepEqual(JSON.parse(row.data), { eventId: 'e1' });
    }
  });

  it('matches type filters literally (an underscore is not a wildcard)', async () => {
    const { db } = database();
    const { tenant } = await tenantWithEndpoints([
      { types: ['interview.interviewee.checked_in.v1'] },
    ]);
    await inTransaction(db, async (tx) => {
      // Same length, one character different where the filter has "_".
      const lookalike = 'interview.interviewee.checkedXin.v1' as WebhookNotice['type'];
      await outbox.record(notice(tenant.app.id, tenant.employer.id, lookalike, 'e1'), tx);
    });
    assert.equal((await deliveriesOf(tenant.app.id)).length, 0);
  });

  it('numbers the changes of one subject per endpoint', async () => {
    const { db } = database();
    const { tenant, endpoints } = await tenantWithEndpoints([
      {},
      { types: ['interview.event.updated.v1'] },
    ]);
    const record = (type: WebhookNotice['type'], subject: string) =>
      inTransaction(db, (tx) =>
        outbox.record(notice(tenant.app.id, tenant.employer.id, type, subject), tx),
      );
    await record('interview.event.created.v1', 'e1');
    await record('interview.event.updated.v1', 'e1');
    await record('interview.event.created.v1', 'e2');
    await record('interview.event.updated.v1', 'e1');
    const rows = await deliveriesOf(tenant.app.id);
    const sequences = (endpointId: string, subject: string) =>
      rows
        .filter((row) => row.endpoint_id === endpointId && row.subject === subject)
        .map((row) => Number(row.sequence));
    assert.deepEqual(sequences(endpoints[0]!.id, 'e1'), [1, 2, 3]);
    assert.deepEqual(sequences(endpoints[0]!.id, 'e2'), [1]);
    assert.deepEqual(sequences(endpoints[1]!.id, 'e1'), [1, 2]);
  });

  it('writes nothing when the change rolls back', async () => {
    const { db } = database();
    const { tenant } = await tenantWithEndpoints([{}]);
    await assert.rejects(
      inTransaction(db, async (tx) => {
        await outbox.record(
          notice(tenant.app.id, tenant.employer.id, 'interview.event.created.v1', 'e1'),
          tx,
        );
        throw new Error('the change fails after its notice');
      }),
      /the change fails/,
    );
    assert.equal((await deliveriesOf(tenant.app.id)).length, 0);
  });

  it('a change without an employer reaches only endpoints that take every employer', async () => {
    const { db } = database();
    const { tenant, endpoints } = await tenantWithEndpoints([{}, { employers: ['some-employer'] }]);
    await inTransaction(db, (tx) =>
      outbox.record(notice(tenant.app.id, null, 'interview.event.created.v1', 'e1'), tx),
    );
    assert.deepEqual(
      (await deliveriesOf(tenant.app.id)).map((row) => row.endpoint_id),
      [endpoints[0]!.id],
    );
  });
});
