import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { TokenRequests } from '../support/token-requests.js';
import { OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const PROBE =
  'query TracedEvents { findVirtualInterviewEvents(first: 1, input: {}) { edges { node { id } } } }';

describeEachDialect('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', (database) => {
  const receiver = new OtlpReceiver();
  let service: ServiceProcess | undefined;

  after(async () => {
    await service?.kill();
    await receiver.stop();
  });

  it('exports HTTP, Express, GraphQL and database spans of a token and a GraphQL request', async function () {
    this.timeout(90_000);
    const endpoint = await receiver.start();
    service = await startServiceProcess(database(), {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      // Export every 100 ms rather than every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const tenant = await createOAuthTenant(database().db, systemClock, 'traced');
    const issued = await new TokenRequests(service.url, tenant.app).clientCredentials(
      tenant.employer.id,
    );
    assert.equal(issued.status, 200);
    const answer = await postGraphQL(service.url, issued.body.access_token as string, {
      query: PROBE,
    });
    assert.equal(answer.body.errors, undefined);

    const has = (scope: string, name: RegExp) => (span: ReceivedSpan) =>
      span.scope === `@opentelemetry/instrumentation-${scope}` && name.test(span.name);
    const expected = [
      has('http', /^POST \/oauth\/v2\/tokens$/),
      has('http', /^POST \/graphql$/),
      has('express', /\/oauth\/v2\/tokens$/),
      has('graphql', /^query TracedEvents$/),
      // A token is inserted by group commit, which SQLite runs in one synchronous call, beside knex.
      database().dialect === 'sqlite'
        ? (span: ReceivedSpan) =>
            span.scope === 'hiring-partner-api/sqlite-one-call' &&
            /^insert access_tokens$/.test(span.name)
        : has('knex', /^insert\b.*access_tokens$/),
      has('knex', /^select\b.*interview_events$/),
      ...(database().dialect === 'postgres' ? [has('pg', /^pg\.query:/)] : []),
    ];
    for (let attempt = 0; attempt < 100; attempt++) {
      if (expected.every((matches) => receiver.spans.some(matches))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seen = [...new Set(receiver.spans.map((span) => `${span.scope} | ${span.name}`))];
    expected.forEach((matches, index) =>
      assert.ok(receiver.spans.some(matches), `expected span ${index} among:\n${seen.join('\n')}`),
    );
    assert.ok(receiver.spans.every((span) => span.serviceName === 'hiring-partner-api'));
    assert.equal(await service.stop(), 0);
  });
});
