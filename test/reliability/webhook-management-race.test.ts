import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { runConcurrently } from '../support/concurrency.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { postGraphQL } from '../support/graphql-client.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { fixedAddress, RAISED_RATE_LIMITS } from '../support/service-process.js';
import { INTERVIEW_EVENT_TYPES } from '../../src/webhooks/event-types.js';
import { TokenRequests } from '../support/token-requests.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** Partial updates per field, all sent at once with the rotations. */
const UPDATES_PER_FIELD = 8;
const ROTATIONS = 4;

const FIELDS = 'id url description eventTypes enabled';
const UPDATE = `mutation($input: UpdateWebhookEndpointInput!) {
  updateWebhookEndpoint(input: $input) { endpoint { ${FIELDS} } }
}`;
const ROTATE = `mutation($id: ID!) {
  rotateWebhookEndpointSecret(input: { id: $id }) { secret }
}`;

interface UrlChange {
  from: string;
  to: string;
}

/**
 * Management calls that race, on the production default too (two workers, so racing calls land
 * on both): partial updates of different fields of one endpoint and secret rotations, all at
 * once, then one more write, then a restart. Every acknowledged change is there: no update
 * undoes a field it did not name (the lost update a read-then-write resolver had), the audit log
 * holds exactly one entry per change in one unbroken chain, and the last rotated secret signs.
 */
describeEachDeployment('reliability: racing webhook-management calls', (database, deployment) => {
  let service: RunningDeployment | undefined;
  let receiver: WebhookReceiver;
  let address: { PORT: string; AUTH_URL: string };
  let secrets: string[] = [];
  const env = () => ({
    ...RAISED_RATE_LIMITS,
    ...address,
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_DELIVERY_WORKER: 'on',
    WEBHOOK_POLL_MS: '50',
  });

  before(async () => {
    address = await fixedAddress();
    receiver = await WebhookReceiver.start({ secrets: () => secrets });
    service = await startDeployment(database(), deployment, env());
  });
  after(async () => {
    await service?.stop();
    await receiver?.stop();
  });

  it('keeps every acknowledged change through the race, the next write and a restart', async function () {
    this.timeout(180_000);
    const { db } = database();
    const tenant = await createOAuthTenant(db, systemClock, 'hook-race');
    const requests = new TokenRequests(service!.url, tenant.app);
    const issued = await requests.clientCredentials();
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const token = issued.body.access_token as string;
    const data = async (query: string, variables: object) => {
      const { status, body } = await postGraphQL(service!.url, token, { query, variables });
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    };

    const created = await data(
      `mutation($input: CreateWebhookEndpointInput!) {
        createWebhookEndpoint(input: $input) { secret endpoint { id } }
      }`,
      {
        input: {
          url: receiver.url,
          description: 'original',
          eventTypes: [INTERVIEW_EVENT_TYPES[0]],
        },
      },
    );
    const id = created.createWebhookEndpoint.endpoint.id as string;
    secrets = [created.createWebhookEndpoint.secret];

    // Each call changes one field to a value no other call writes.
    const calls: Array<() => Promise<unknown>> = [];
    for (let i = 0; i < UPDATES_PER_FIELD; i += 1) {
      calls.push(() => data(UPDATE, { input: { id, url: `${receiver.url}/v${i}` } }));
      calls.push(() => data(UPDATE, { input: { id, description: `racing ${i}` } }));
      calls.push(() => data(UPDATE, { input: { id, eventTypes: [INTERVIEW_EVENT_TYPES[i + 1]] } }));
    }
    const rotated: string[] = [];
    for (let i = 0; i < ROTATIONS; i += 1) {
      calls.push(async () =>
        rotated.push((await data(ROTATE, { id })).rotateWebhookEndpointSecret.secret),
      );
    }
    let next = 0;
    const outcomes = await runConcurrently(calls.length, 8, () => calls[next++]!());
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
    assert.deepEqual(failed, [], 'every racing call was acknowledged');

    const audit = async () =>
      (
        await db('audit_events')
          .where({ app_id: tenant.app.id })
          .whereIn('type', ['webhook.endpoint_updated', 'webhook.secret_rotated'])
          .orderBy('id')
      ).map((row: { type: string; details: string }) => ({
        type: row.type,
        details: JSON.parse(row.details) as { changed?: string[]; url?: UrlChange },
      }));
    const entries = await audit();
    const updates = entries.filter((entry) => entry.type === 'webhook.endpoint_updated');
    const changedFields = updates.map((entry) => entry.details.changed);
    assert.equal(updates.length, 3 * UPDATES_PER_FIELD, 'one audited change per update');
    assert.ok(
      changedFields.every((changed) => changed?.length === 1),
      `each update changed only the field it named: ${JSON.stringify(changedFields)}`,
    );
    // The URL changes form one chain from the registered URL: none was undone by another call.
    const urlChain = updates.flatMap((entry) => (entry.details.url ? [entry.details.url] : []));
    assert.equal(urlChain.length, UPDATES_PER_FIELD);
    urlChain.reduce((from, change) => {
      assert.equal(change.from, from, 'a URL change starts where the one before it ended');
      return change.to;
    }, receiver.url);
    assert.equal(
      entries.filter((entry) => entry.type === 'webhook.secret_rotated').length,
      ROTATIONS,
    );

    const raced = (await data(`query($id: ID!) { webhookEndpoint(id: $id) { ${FIELDS} } }`, { id }))
      .webhookEndpoint;
    assert.equal(raced.url, urlChain.at(-1)!.to);
    assert.match(raced.description, /^racing \d$/);
    assert.equal(raced.eventTypes.length, 1);

    // The next write, then a restart: everything acknowledged is still there.
    const after = (await data(UPDATE, { input: { id, description: 'after the race' } }))
      .updateWebhookEndpoint.endpoint;
    assert.deepEqual({ ...after, description: raced.description }, raced);
    await service!.stop();
    service = undefined;
    service = await startDeployment(database(), deployment, env());
    const restarted = (
      await data(`query($id: ID!) { webhookEndpoint(id: $id) { ${FIELDS} } }`, { id })
    ).webhookEndpoint;
    assert.deepEqual(restarted, after);

    // A rotation after the restart signs alone once the racing secrets are forgotten here.
    const last = (await data(ROTATE, { id })).rotateWebhookEndpointSecret.secret as string;
    secrets = [last];
    await data(
      `mutation($id: ID!) { sendWebhookTestEvent(input: { id: $id }) { delivery { id } } }`,
      {
        id,
      },
    );
    const deadline = Date.now() + 20_000;
    while (receiver.accepted.size === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(receiver.accepted.size, 1, 'the test event arrived, signed by the last secret');
    assert.deepEqual(receiver.refused, []);
    assert.equal(rotated.length, ROTATIONS);
  });
});
