import assert from 'node:assert/strict';
import { request } from 'node:http';
import { assertResponseMatches } from '../support/openapi-contract.js';
import { describeEachDialect } from '../support/databases.js';
import { acceptTestToken, startTestService } from '../support/service.js';

interface Observed {
  status: number;
  headers: Headers;
  body: unknown;
}

async function call(url: string, init?: RequestInit): Promise<Observed> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  if (response.headers.get('content-type')?.includes('json')) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body };
}

describeEachDialect('HTTP service', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    service = await startTestService(database(), {
      authenticate: acceptTestToken,
    });
  });
  after(async () => {
    await service?.stop();
  });

  it('answers /healthz and /readyz as openapi.yaml documents', async () => {
    const health = await call(`${service.url}/healthz`);
    assertResponseMatches('GET', '/healthz', health);
    assert.deepEqual(health.body, { status: 'ok' });

    const ready = await call(`${service.url}/readyz`);
    assertResponseMatches('GET', '/readyz', ready);
    assert.deepEqual(ready.body, { status: 'ready', checks: { database: 'ok' } });
  });

  it('sets security headers and a request id on every response', async () => {
    const { headers } = await call(`${service.url}/healthz`);
    assert.match(headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.match(headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(headers.get('referrer-policy'), 'no-referrer');
    assert.equal(headers.get('x-frame-options'), 'DENY');
    assert.equal(headers.get('x-content-type-options'), 'nosniff');
    assert.equal(headers.get('x-powered-by'), null);

    const echoed = await call(`${service.url}/healthz`, {
      headers: { 'X-Request-Id': 'trace-42' },
    });
    assert.equal(echoed.headers.get('x-request-id'), 'trace-42');
    const refused = await call(`${service.url}/healthz`, {
      headers: { 'X-Request-Id': 'bad id\t!' },
    });
    assert.notEqual(refused.headers.get('x-request-id'), 'bad id\t!');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const missing = await call(`${service.url}/no/such/thing`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      error: 'not_found',
      error_description: 'No resource at GET /no/such/thing',
      request_id: missing.headers.get('x-request-id'),
    });
  });

  describe('POST /graphql', () => {
    const graphql = (body: string, headers: Record<string, string> = {}) =>
      call(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });

    it('rejects a request without a bearer token with 401 UNAUTHENTICATED', async () => {
      const response = await graphql('{"query":"{ __typename }"}');
      assertResponseMatches('POST', '/graphql', response);
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer /);
      assert.deepEqual(response.body, {
        data: null,
        errors: [
          {
            message: 'Missing bearer access token in the Authorization header',
            extensions: { code: 'UNAUTHENTICATED' },
          },
        ],
      });
    });

    it('rejects an invalid token with 401 UNAUTHENTICATED before reading the body', async () => {
      const response = await graphql('not even json', { authorization: 'Bearer forged' });
      assertResponseMatches('POST', '/graphql', response);
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    });

    it('executes a query for an authenticated caller', async () => {
      const response = await graphql('{"query":"{ __typename }"}', {
        authorization: 'Bearer valid-test-token',
      });
      assertResponseMatches('POST', '/graphql', response);
      // A free operation: nothing is charged (the test service runs without budgets).
      assert.deepEqual(response.body, {
        data: { __typename: 'Query' },
        extensions: { cost: { requestedQueryCost: 0, actualQueryCost: 0 } },
      });
    });

    it('tags parse and validation failures', async () => {
      const auth = { authorization: 'Bearer valid-test-token' };
      const parse = await graphql('{"query":"{ unclosed"}', auth);
      assertResponseMatches('POST', '/graphql', parse);
      assert.equal(
        (parse.body as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions
          .code,
        'GRAPHQL_PARSE_FAILED',
      );
      const invalid = await graphql('{"query":"{ noSuchField }"}', auth);
      assertResponseMatches('POST', '/graphql', invalid);
      assert.equal(
        (invalid.body as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions
          .code,
        'GRAPHQL_VALIDATION_FAILED',
      );
    });

    it('answers malformed JSON and oversized bodies in GraphQL shape', async () => {
      const auth = { authorization: 'Bearer valid-test-token' };
      const malformed = await graphql('{"query":', auth);
      assertResponseMatches('POST', '/graphql', malformed);
      assert.equal(malformed.status, 400);
      const huge = await graphql(
        JSON.stringify({ query: `{ __typename }${' '.repeat(200_000)}` }),
        auth,
      );
      assertResponseMatches('POST', '/graphql', huge);
      assert.equal(huge.status, 413);
      assert.match(JSON.stringify(huge.body), /exceeds the limit of 102400 bytes/);
    });

    it('refuses a body that is not JSON with 415', async () => {
      const response = await call(`${service.url}/graphql`, {
        method: 'POST',
        headers: { authorization: 'Bearer valid-test-token', 'content-type': 'text/plain' },
        body: '{ __typename }',
      });
      assertResponseMatches('POST', '/graphql', response);
      assert.equal(response.status, 415);
    });

    it('refuses other methods with 405 and Allow: POST', async () => {
      const response = await call(`${service.url}/graphql?query={__typename}`);
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    });
  });
});

describeEachDialect('graceful shutdown', (database) => {
  it('finishes an in-flight request, then stops accepting connections', async () => {
    const service = await startTestService(database(), {
      authenticate: acceptTestToken,
    });
    const url = new URL('/graphql', service.url);
    const body = JSON.stringify({ query: '{ __typename }' });
    // Send the headers and half of the body, so the request is in flight while shutdown starts.
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: 'Bearer valid-test-token',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 300);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = service.stop();
    const finished = await inFlight;
    assert.equal(finished.status, 200);
    assert.deepEqual(JSON.parse(finished.text).data, { __typename: 'Query' });
    await stopped;
    await assert.rejects(fetch(`${service.url}/healthz`), 'no longer accepting connections');
  });
});
