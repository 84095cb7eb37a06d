import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';
import { TokenRequests } from '../support/token-requests.js';
import { parseSamples, sumOf, valueOf, type Sample } from './prometheus-text.js';

const METRICS_TOKEN = 'metrics-token-for-the-tests-0123456789';
const PROBE =
  'query ProbeEvents { findVirtualInterviewEvents(first: 1, input: {}) { edges { node { id } } } }';

async function scrape(url: string, token = METRICS_TOKEN): Promise<Sample[]> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseSamples(await response.text());
}

/** How much each series moved between two scrapes. */
function moved(before: Sample[], after: Sample[]) {
  return (name: string, labels: Record<string, string> = {}) =>
    sumOf(after, name, labels) - sumOf(before, name, labels);
}

describeEachDialect('/metrics on the service port (METRICS_TOKEN)', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database(), { env: { METRICS_TOKEN } });
  });
  after(async () => {
    await service?.stop();
  });

  it('counts a token request and GraphQL requests under bounded labels', async () => {
    const metrics = `${service.url}/metrics`;
    const tenant = await createOAuthTenant(database().db, systemClock, 'metrics');
    const before = await scrape(metrics);

    const issued = await new TokenRequests(service.url, tenant.app).clientCredentials(
      tenant.employer.id,
    );
    assert.equal(issued.status, 200);
    const token = issued.body.access_token as string;
    const probe = await postGraphQL(service.url, token, { query: PROBE });
    assert.deepEqual(probe.body.errors, undefined);
    const invalid = await postGraphQL(service.url, token, { query: '{ noSuchField }' });
    assert.equal(invalid.body.errors?.[0]?.extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    const unauthenticated = await postGraphQL(service.url, 'not-a-token', { query: PROBE });
    assert.equal(unauthenticated.status, 401);
    const secretPath = '/interviews/some-capability-token-1234/nothing';
    assert.equal((await fetch(`${service.url}${secretPath}`)).status, 404);

    const after = await scrape(metrics);
    const delta = moved(before, after);
    const tokenRoute = { method: 'POST', route: '/oauth/v2/tokens', status_code: '200' };
    assert.equal(delta('http_request_duration_seconds_count', tokenRoute), 1);
    assert.equal(
      delta('http_request_duration_seconds_count', { route: '/graphql', status_code: '200' }),
      2,
    );
    assert.equal(
      delta('http_request_duration_seconds_count', { route: '/graphql', status_code: '401' }),
      1,
    );
    assert.ok(delta('http_request_duration_seconds_count', { route: 'unmatched' }) >= 1);
    assert.ok(
      after.every((sample) => !Object.values(sample.labels).some((v) => v.includes('1234'))),
      'no raw path becomes a label',
    );

    assert.equal(delta('oauth_tokens_issued_total', { grant_type: 'client_credentials' }), 1);
    assert.equal(
      delta('graphql_operation_duration_seconds_count', {
        operation_type: 'query',
        operation_name: 'ProbeEvents',
      }),
      1,
    );
    assert.equal(
      delta('graphql_operation_duration_seconds_count', {
        operation_type: 'unknown',
        operation_name: 'anonymous',
      }),
      1,
    );
    assert.equal(delta('graphql_errors_total', { code: 'GRAPHQL_VALIDATION_FAILED' }), 1);
    assert.equal(delta('graphql_errors_total', { code: 'UNAUTHENTICATED' }), 1);

    assert.ok(delta('db_query_duration_seconds_count', { operation: 'select' }) >= 2);
    assert.ok(delta('db_query_duration_seconds_count', { operation: 'insert' }) >= 1);
    for (const state of ['used', 'free', 'pending_acquires']) {
      assert.ok(
        after.some((s) => s.name === 'db_pool_connections' && s.labels.state === state),
        `db_pool_connections{state="${state}"}`,
      );
    }
    assert.ok(valueOf(after, 'process_resident_memory_bytes') > 0);
    assert.ok(after.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds'));
    assert.ok(after.some((sample) => sample.name === 'nodejs_heap_size_used_bytes'));
  });

  it('answers 401 without the token or with another one', async () => {
    const metrics = `${service.url}/metrics`;
    const missing = await fetch(metrics);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    const wrong = await fetch(metrics, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    assert.equal(wrong.status, 401);
    const basic = await fetch(metrics, { headers: { authorization: `Basic ${METRICS_TOKEN}` } });
    assert.equal(basic.status, 401);
    assert.doesNotMatch(await wrong.text(), /http_request/);
  });
});

describeEachDialect('/metrics when metrics are off, or on METRICS_PORT', (database) => {
  it('is not found on a service without METRICS_TOKEN or METRICS_PORT', async () => {
    const service = await startTestService(database());
    try {
      const response = await fetch(`${service.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      assert.equal(response.status, 404);
      assert.equal(service.metricsUrl, undefined);
    } finally {
      await service.stop();
    }
  });

  it('serves METRICS_PORT without a token, and nothing on the service port', async () => {
    const service = await startTestService(database(), { env: { METRICS_PORT: '0' } });
    try {
      assert.ok(service.metricsUrl?.startsWith('http://127.0.0.1:'), service.metricsUrl);
      assert.equal((await fetch(`${service.url}/healthz`)).status, 200);
      const samples = parseSamples(await (await fetch(service.metricsUrl!)).text());
      assert.ok(
        valueOf(samples, 'http_request_duration_seconds_count', {
          method: 'GET',
          route: '/healthz',
          status_code: '200',
        }) >= 1,
      );
      assert.equal((await fetch(`${service.url}/metrics`)).status, 404);
      assert.equal((await fetch(service.metricsUrl!.replace('/metrics', '/other'))).status, 404);
      const post = await fetch(service.metricsUrl!, { method: 'POST' });
      assert.equal(post.status, 405);
    } finally {
      await service.stop();
    }
  });
});
