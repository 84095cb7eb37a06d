import assert from 'node:assert/strict';
import { buildSchema, printSchema } from 'graphql';
import { describeEachDialect } from '../support/databases.js';
import { gatewayApis } from '../support/gateway-schema.js';
import { assertResponseMatches } from '../support/openapi-contract.js';
import { acceptTestToken, startTestService } from '../support/service.js';

describeEachDialect('GET /schema.graphql', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    service = await startTestService(database(), { authenticate: acceptTestToken });
  });
  after(async () => {
    await service?.stop();
  });

  async function get(headers: Record<string, string> = {}) {
    const response = await fetch(`${service.url}/schema.graphql`, { headers });
    const body = await response.text();
    assertResponseMatches('GET', '/schema.graphql', {
      status: response.status,
      headers: response.headers,
      body,
    });
    return { response, body };
  }

  it('serves the merged SDL of every API, without a token, as openapi.yaml documents', async () => {
    const { response, body } = await get();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
    // One document a partner's tools read as it is: the schema the gateway serves.
    assert.equal(printSchema(buildSchema(body)), printSchema(gatewayApis.schema));
    const operations = Object.keys(buildSchema(body).getQueryType()!.getFields());
    assert.deepEqual(operations, [
      'findVirtualInterviewEvents',
      'virtualInterviewEvents',
      'webhookEndpoints',
      'webhookEndpoint',
      'partnerDispositions',
      'jobSearch',
      'node',
      'nodes',
    ]);
    assert.match(body, /^scalar DateTime\s*@specifiedBy/m);
    assert.doesNotMatch(body, /^extend /m);
    // The cost directives, declared and applied, as the gateway reads them.
    assert.match(body, /^directive @listSize\(/m);
    assert.match(body, /^directive @cost\(/m);
    assert.match(
      body,
      /\): VirtualInterviewEventsPayload! @listSize\(slicingArguments: \["input\.ids"\], sizedFields: \["events"\]\)/,
    );
    assert.match(body, /attempts: \[WebhookAttempt!\]! @listSize\(assumedSize: 100\)/);
  });

  it('answers 304 to a revalidation with its ETag', async () => {
    const { response } = await get();
    const etag = response.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]{43}"$/);
    const again = await get({ 'If-None-Match': etag! });
    assert.equal(again.response.status, 304);
    assert.equal(again.body, '');
    assert.equal((await get({ 'If-None-Match': '"stale"' })).response.status, 200);
  });
});
