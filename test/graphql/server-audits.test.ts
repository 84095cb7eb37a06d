import assert from 'node:assert/strict';
import {
  serverAudits,
  type AuditFail,
  type AuditRequirement,
  type AuditResult,
} from 'graphql-http';
import type { Principal } from '../../src/graphql/context.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const principal: Principal = {
  kind: 'app',
  appId: 'audit-app',
  clientId: 'audit-client',
  jti: 'audit-jti',
  ownerUserId: 'audit-owner',
  employerId: 'audit-employer',
  scopes: ['employer_access'],
};

function isLevel(result: AuditResult, level: AuditRequirement): boolean {
  return result.name.startsWith(`${level} `);
}

describeEachDialect('GraphQL over HTTP audits of graphql-http', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database(), {
      authenticate: async (token) => (token === 'audit-token' ? principal : null),
    });
  });
  after(async () => {
    await service?.stop();
  });

  it('passes every MUST audit with a valid bearer token', async () => {
    const withToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', 'Bearer audit-token');
      return fetch(input, { ...init, headers });
    };
    const audits = serverAudits({ url: `${service.url}/graphql`, fetchFn: withToken });
    const results = await Promise.all(audits.map((audit) => audit.fn()));
    const failures = (level: AuditRequirement) =>
      results.filter(
        (result): result is AuditFail => isLevel(result, level) && result.status !== 'ok',
      );
    const count = (level: AuditRequirement) =>
      results.filter((result) => isLevel(result, level)).length;

    assert.ok(count('MUST') > 0);
    assert.deepEqual(
      failures('MUST').map(({ name, reason }) => `${name}: ${reason}`),
      [],
      'every MUST audit passes',
    );

    const shouldPassed = count('SHOULD') - failures('SHOULD').length;
    console.log(
      `      GraphQL over HTTP: ${count('MUST')}/${count('MUST')} MUST and ` +
        `${shouldPassed}/${count('SHOULD')} SHOULD audits passed`,
    );
    for (const { name, reason } of failures('SHOULD')) console.log(`        - ${name}: ${reason}`);
  });
});
