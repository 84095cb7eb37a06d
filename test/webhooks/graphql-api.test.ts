import assert from 'node:assert/strict';
import { isObjectType } from 'graphql';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL, type GraphQLBody } from '../support/graphql-client.js';
import { gatewayApis } from '../support/gateway-schema.js';
import { createOAuthTenant, issueCode, type OAuthTenant } from '../support/oauth-fixtures.js';
import { freePort, startTestService } from '../support/service.js';
import { TokenRequests } from '../support/token-requests.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const ENDPOINT_FIELDS = `
  id url description eventTypes employerIds enabled disabledReason disabledAt failingSince
  createdAt updatedAt
`;
const DELIVERY_FIELDS = `
  id webhookId type subject sequence status attemptCount nextAttemptAt lastAttemptAt
  lastStatusCode deliveredAt createdAt
  attempts { attemptedAt statusCode latencyMs responseExcerpt error }
`;

const CREATE = `mutation Create($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } }
}`;
const ENDPOINT = `query Endpoint($id: ID!) { webhookEndpoint(id: $id) { ${ENDPOINT_FIELDS} } }`;
const ENDPOINTS = `query Endpoints($first: Int, $after: String) {
  webhookEndpoints(first: $first, after: $after) {
    totalCount
    edges { cursor node { id url } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;
const DELIVERIES = `query Deliveries($id: ID!, $status: WebhookDeliveryStatus) {
  webhookEndpoint(id: $id) {
    deliveriesConnection(first: 10, status: $status) {
      edges { cursor node { ${DELIVERY_FIELDS} } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
const SEND_TEST = `mutation Test($id: ID!) {
  sendWebhookTestEvent(input: { id: $id }) { delivery { ${DELIVERY_FIELDS} } }
}`;

/** Waits for `check` to give something, polling. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The webhook-management API (schema/webhooks.graphql) through the real gateway, with real
 * tokens: an app manages its own endpoints with its own client-credentials token, deliveries
 * reach a verifying receiver, and every other caller is refused.
 */
describeEachDialect('webhooks: the GraphQL management API', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let receiver: WebhookReceiver;
  let tenant: OAuthTenant;
  const secrets: string[] = [];
  const tokens = { app: '', employer: '', user: '', otherApp: '' };

  before(async () => {
    service = await startTestService(database(), {
      env: {
        WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '20ms',
        WEBHOOK_POLL_MS: '50',
        WEBHOOK_DELIVERY_WORKER: 'on',
      },
    });
    receiver = await WebhookReceiver.start({ secrets: () => secrets });
    const { db } = database();
    tenant = await createOAuthTenant(db, systemClock, 'hooks');
    const other = await createOAuthTenant(db, systemClock, 'other');
    const requests = new TokenRequests(service.url, tenant.app);
    const token = async (issued: Promise<{ status: number; body: any }>) => {
      const { status, body } = await issued;
      assert.equal(status, 200, JSON.stringify(body));
      return body.access_token as string;
    };
    tokens.app = await token(requests.clientCredentials());
    tokens.employer = await token(requests.clientCredentials(tenant.employer.id));
    const code = await issueCode(db, systemClock, {
      app_id: tenant.app.id,
      user_id: tenant.user.id,
    });
    // A user's token for the app's employer: the Interview API answers it, this API does not.
    tokens.user = await token(requests.exchangeCode(code, tenant.employer.id));
    tokens.otherApp = await token(new TokenRequests(service.url, other.app).clientCredentials());
  });
  after(async () => {
    await service?.stop();
    await receiver?.stop();
  });

  async function call(query: string, variables: object = {}, token = tokens.app) {
    const { status, body } = await postGraphQL(service.url, token, { query, variables });
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  /** The answer's data, failing on any error. */
  async function data(query: string, variables: object = {}, token = tokens.app) {
    const body = await call(query, variables, token);
    assert.deepEqual(body.errors, undefined);
    return body.data;
  }

  function codes(body: GraphQLBody): string[] {
    return (body.errors ?? []).map((error) => error.extensions.code);
  }

  async function create(input: object = {}) {
    const answer = await data(CREATE, { input: { url: receiver.url, ...input } });
    return answer.createWebhookEndpoint as { secret: string; endpoint: any };
  }

  async function auditTypes(): Promise<string[]> {
    const rows = await database()
      .db('audit_events')
      .where({ app_id: tenant.app.id })
      .whereLike('type', 'webhook.%')
      .orderBy('id');
    for (const row of rows) {
      assert.equal(row.actor_user_id, null, 'the app is the actor');
      assert.ok(row.request_id, 'the request is recorded');
      assert.doesNotMatch(row.details ?? '', /whsec_/);
    }
    return rows.map((row: { type: string }) => row.type);
  }

  it('creates an endpoint and shows its secret once, never again', async () => {
    const { secret, endpoint } = await create({
      description: 'ATS receiver',
      eventTypes: ['interview.event.created.v1', 'interview.event.cancelled.v1'],
      employerIds: [tenant.employer.id],
    });
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(endpoint.url, receiver.url);
    assert.equal(endpoint.description, 'ATS receiver');
    assert.deepEqual(endpoint.eventTypes, [
      'interview.event.created.v1',
      'interview.event.cancelled.v1',
    ]);
    assert.deepEqual(endpoint.employerIds, [tenant.employer.id]);
    assert.equal(endpoint.enabled, true);
    assert.equal(endpoint.disabledAt, null);
    assert.match(endpoint.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);

    const read = await data(ENDPOINT, { id: endpoint.id });
    assert.deepEqual(read.webhookEndpoint, endpoint);
    const type = gatewayApis.schema.getType('WebhookEndpoint');
    assert.ok(isObjectType(type));
    assert.ok(
      Object.keys(type.getFields()).every((field) => !/secret/i.test(field)),
      'no field of an endpoint reads its secret',
    );
    const stored = await database().db('webhook_endpoints').where({ id: endpoint.id }).first();
    assert.notEqual(stored.secret_sealed, secret);
    assert.ok(!String(stored.secret_sealed).includes(secret.slice(6)));
  });

  it('lists the app’s endpoints one page at a time, and no other app’s', async () => {
    await create({ description: 'second' });
    await create({ description: 'third' });
    const ids: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const { webhookEndpoints: page } = await data(ENDPOINTS, { first: 2, after });
      assert.equal(page.totalCount, 3);
      assert.equal(page.pageInfo.hasPreviousPage, false);
      assert.ok(page.edges.length <= 2);
      ids.push(...page.edges.map((edge: any) => edge.node.id));
      pages += 1;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    assert.equal(pages, 2);
    assert.equal(new Set(ids).size, 3);

    const { webhookEndpoints: theirs } = await data(ENDPOINTS, {}, tokens.otherApp);
    assert.equal(theirs.totalCount, 0);
    assert.deepEqual(theirs.edges, []);
    assert.equal(theirs.pageInfo.endCursor, null);
    const seen = await data(ENDPOINT, { id: ids[0] }, tokens.otherApp);
    assert.equal(seen.webhookEndpoint, null);
    const changed = await call(
      'mutation($id: ID!) { disableWebhookEndpoint(input: { id: $id }) { endpoint { id } } }',
      { id: ids[0] },
      tokens.otherApp,
    );
    assert.deepEqual(codes(changed), ['NOT_FOUND']);
  });

  it('updates only the fields given, and rotates the secret with an overlap', async () => {
    const { endpoint } = await create({ eventTypes: ['interview.event.ended.v1'] });
    const updated = await data(
      `mutation($input: UpdateWebhookEndpointInput!) {
        updateWebhookEndpoint(input: $input) { endpoint { ${ENDPOINT_FIELDS} } }
      }`,
      { input: { id: endpoint.id, description: 'renamed' } },
    );
    const after = updated.updateWebhookEndpoint.endpoint;
    assert.equal(after.description, 'renamed');
    assert.equal(after.url, endpoint.url);
    assert.deepEqual(after.eventTypes, ['interview.event.ended.v1']);

    const rotated = await data(
      `mutation($id: ID!) {
        rotateWebhookEndpointSecret(input: { id: $id }) {
          secret previousSecretExpiresAt endpoint { id }
        }
      }`,
      { id: endpoint.id },
    );
    const { secret, previousSecretExpiresAt } = rotated.rotateWebhookEndpointSecret;
    assert.match(secret, /^whsec_/);
    assert.ok(Date.parse(previousSecretExpiresAt) > Date.now());
    await data(
      `mutation($id: ID!) { deleteWebhookEndpoint(input: { id: $id }) { deletedEndpointId } }`,
      {
        id: endpoint.id,
      },
    );
  });

  it('sends a test event the receiver verifies, then resends it with the same webhook-id', async () => {
    const { endpoint, secret } = await create({ description: 'test sends' });
    secrets.push(secret);
    const sent = await data(SEND_TEST, { id: endpoint.id });
    const queued = sent.sendWebhookTestEvent.delivery;
    assert.equal(queued.type, 'webhook.test.v1');
    assert.equal(queued.subject, endpoint.id);

    const deliveredOnce = await until('the test delivery', async () => {
      const page = await data(DELIVERIES, { id: endpoint.id, status: 'DELIVERED' });
      return page.webhookEndpoint.deliveriesConnection.edges[0]?.node;
    });
    assert.equal(deliveredOnce.id, queued.id);
    assert.equal(deliveredOnce.webhookId, queued.webhookId);
    assert.equal(deliveredOnce.lastStatusCode, 204);
    assert.ok(deliveredOnce.deliveredAt);
    assert.equal(deliveredOnce.attempts.length, 1);
    assert.equal(deliveredOnce.attempts[0].statusCode, 204);
    assert.equal(deliveredOnce.attempts[0].error, null);
    assert.ok(receiver.accepted.has(queued.webhookId));
    assert.deepEqual(receiver.refused, []);

    const resent = await data(
      `mutation($id: ID!) { resendWebhookDelivery(input: { deliveryId: $id }) { delivery { id status webhookId } } }`,
      { id: queued.id },
    );
    assert.deepEqual(resent.resendWebhookDelivery.delivery, {
      id: queued.id,
      status: 'PENDING',
      webhookId: queued.webhookId,
    });
    await until('the resent delivery', async () => {
      const page = await data(DELIVERIES, { id: endpoint.id });
      const node = page.webhookEndpoint.deliveriesConnection.edges[0]?.node;
      return node?.status === 'DELIVERED' && node.attempts.length === 2 ? node : undefined;
    });
    assert.equal(receiver.accepted.get(queued.webhookId)?.accepted, 2);

    const unknown = await call(
      `mutation { resendWebhookDelivery(input: { deliveryId: "nope" }) { delivery { id } } }`,
    );
    assert.deepEqual(codes(unknown), ['NOT_FOUND']);
  });

  it('reads the attempts of a whole page of deliveries in one statement', async () => {
    const { endpoint, secret } = await create({ description: 'a page of attempts' });
    secrets.push(secret);
    for (let i = 0; i < 4; i++) await data(SEND_TEST, { id: endpoint.id });
    await until('four delivered test events', async () => {
      const page = await data(DELIVERIES, { id: endpoint.id, status: 'DELIVERED' });
      return page.webhookEndpoint.deliveriesConnection.edges.length === 4 ? true : undefined;
    });
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    service.db.on('query', record);
    try {
      const page = await data(DELIVERIES, { id: endpoint.id });
      const edges = page.webhookEndpoint.deliveriesConnection.edges;
      assert.equal(edges.length, 4);
      for (const edge of edges) assert.equal(edge.node.attempts.length, 1);
    } finally {
      service.db.off('query', record);
    }
    const attemptReads = statements.filter((sql) => /from .webhook_attempts./.test(sql));
    assert.equal(attemptReads.length, 1, attemptReads.join('\n'));
  });

  it('recovers failed deliveries, and disables, enables and deletes an endpoint', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/hooks`;
    const { endpoint } = await create({ url: dead });
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    await data(SEND_TEST, { id: endpoint.id });
    const failed = await until('the failed delivery', async () => {
      const page = await data(DELIVERIES, { id: endpoint.id, status: 'FAILED' });
      return page.webhookEndpoint.deliveriesConnection.edges[0]?.node;
    });
    assert.equal(failed.attempts.length, 2);
    assert.ok(
      failed.attempts.every((attempt: any) => attempt.statusCode === null && attempt.error),
    );

    const RECOVER = `mutation($input: RecoverFailedWebhookDeliveriesInput!) {
      recoverFailedWebhookDeliveries(input: $input) { recoveredCount }
    }`;
    const recovered = await data(RECOVER, { input: { endpointId: endpoint.id, since: startedAt } });
    assert.equal(recovered.recoverFailedWebhookDeliveries.recoveredCount, 1);
    const future = await call(RECOVER, {
      input: { endpointId: endpoint.id, since: new Date(Date.now() + 3_600_000).toISOString() },
    });
    assert.deepEqual(codes(future), ['BAD_USER_INPUT']);

    const disabled = await data(
      `mutation($id: ID!) { disableWebhookEndpoint(input: { id: $id }) { endpoint { enabled disabledReason disabledAt } } }`,
      { id: endpoint.id },
    );
    assert.equal(disabled.disableWebhookEndpoint.endpoint.enabled, false);
    assert.equal(disabled.disableWebhookEndpoint.endpoint.disabledReason, 'disabled by its owner');
    assert.ok(disabled.disableWebhookEndpoint.endpoint.disabledAt);
    const refused = await call(SEND_TEST, { id: endpoint.id });
    assert.deepEqual(codes(refused), ['BAD_USER_INPUT']);
    assert.match(refused.errors![0]!.message, /disabled/);

    const enabled = await data(
      `mutation($id: ID!) { enableWebhookEndpoint(input: { id: $id }) { endpoint { enabled disabledReason } } }`,
      { id: endpoint.id },
    );
    assert.deepEqual(enabled.enableWebhookEndpoint.endpoint, {
      enabled: true,
      disabledReason: null,
    });

    const DELETE = `mutation($id: ID!) { deleteWebhookEndpoint(input: { id: $id }) { deletedEndpointId } }`;
    const deleted = await data(DELETE, { id: endpoint.id });
    assert.equal(deleted.deleteWebhookEndpoint.deletedEndpointId, endpoint.id);
    assert.equal((await data(ENDPOINT, { id: endpoint.id })).webhookEndpoint, null);
    assert.deepEqual(codes(await call(DELETE, { id: endpoint.id })), ['NOT_FOUND']);
  });

  it('refuses bad input with BAD_USER_INPUT, naming the problem', async () => {
    const notUrl = await call(CREATE, { input: { url: 'ftp://receiver.example/hooks' } });
    assert.deepEqual(codes(notUrl), ['BAD_USER_INPUT']);
    const unknownType = await call(CREATE, {
      input: { url: receiver.url, eventTypes: ['interview.nothing.v1'] },
    });
    assert.deepEqual(codes(unknownType), ['BAD_USER_INPUT']);
    assert.match(unknownType.errors![0]!.message, /unknown event type "interview\.nothing\.v1"/);
    const unknownEmployer = await call(CREATE, {
      input: { url: receiver.url, employerIds: ['no-such-employer'] },
    });
    assert.deepEqual(codes(unknownEmployer), ['BAD_USER_INPUT']);
    for (const first of [101, 0, -1]) {
      const page = await call(ENDPOINTS, { first });
      assert.deepEqual(codes(page), ['BAD_USER_INPUT']);
      assert.match(page.errors![0]!.message, /first must be a whole number from 1 to 100/);
    }
    const nested = await call(
      `query($id: ID!) { webhookEndpoint(id: $id) { deliveriesConnection(first: 101) { pageInfo { hasNextPage } } } }`,
      { id: (await create()).endpoint.id },
    );
    assert.deepEqual(codes(nested), ['BAD_USER_INPUT']);
    const badCursor = await call(ENDPOINTS, { after: 'not-a-cursor' });
    assert.deepEqual(codes(badCursor), ['BAD_USER_INPUT']);
  });

  it('answers FORBIDDEN to an employer-scoped or a user token, and runs the rest', async () => {
    const MIXED = `query {
      webhookEndpoint(id: "x") { id }
      findVirtualInterviewEvents(first: 1, input: {}) { edges { cursor } }
    }`;
    for (const token of [tokens.employer, tokens.user]) {
      const body = await call(MIXED, {}, token);
      assert.equal(body.errors?.length, 1);
      const [error] = body.errors!;
      assert.equal(error!.extensions.code, 'FORBIDDEN');
      assert.equal((error!.extensions as { api?: string }).api, 'webhooks');
      assert.deepEqual(error!.path, ['webhookEndpoint']);
      assert.match(error!.message, /the app's own access token.*client credentials grant/);
      assert.equal(body.data.webhookEndpoint, null);
      assert.deepEqual(body.data.findVirtualInterviewEvents.edges, []);

      const before = await database().db('webhook_endpoints').count({ n: '*' }).first();
      const refused = await call(CREATE, { input: { url: receiver.url } }, token);
      assert.deepEqual(codes(refused), ['FORBIDDEN']);
      const afterCount = await database().db('webhook_endpoints').count({ n: '*' }).first();
      assert.equal(Number(afterCount!.n), Number(before!.n));
    }
    const user = await call(ENDPOINTS, {}, tokens.user);
    assert.match(user.errors![0]!.message, /issued to a user/);
    const employer = await call(ENDPOINTS, {}, tokens.employer);
    assert.match(employer.errors![0]!.message, /scoped to an employer/);
  });

  it('audits every change with the app as its actor, never a secret', async () => {
    const types = await auditTypes();
    for (const type of [
      'webhook.endpoint_created',
      'webhook.endpoint_updated',
      'webhook.secret_rotated',
      'webhook.test_sent',
      'webhook.delivery_resent',
      'webhook.deliveries_recovered',
      'webhook.endpoint_disabled',
      'webhook.endpoint_enabled',
      'webhook.endpoint_deleted',
    ]) {
      assert.ok(types.includes(type), `${type} is audited (found ${types.join(', ')})`);
    }
  });
});
