import assert from 'node:assert/strict';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { insertEventGraph, insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';

const PAGE = `query($first: Int) {
  findVirtualInterviewEvents(input: {}, first: $first) {
    totalCount
    events {
      id title startTime interviewerLobbyUrl interviewLandingPageUrl
      interviewersConnection { totalCount interviewers { id email name } }
      intervieweesConnection {
        totalCount
        interviewees {
          id name intervieweeLobbyUrl scheduledTime { startTime }
          interviewRecordsConnection {
            records { id startTime interviewee { id } interviewOutcomesConnection { outcomes { interviewer { email } decision { value } } } }
          }
        }
      }
    }
  }
}`;

describeEachDialect('SQL queries per page', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async function () {
    this.timeout(120_000);
    const tenant = await insertTenant(database().db, 'count');
    for (let i = 0; i < 100; i += 1)
      await insertEventGraph(database().db, tenant, Date.UTC(2026, 0, 1) + i * 3_600_000);
    const principal: Principal = {
      kind: 'app',
      appId: tenant.appId,
      ownerUserId: tenant.userId,
      clientId: 'c',
      jti: 'j',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database(), { authenticate: async () => principal });
  });
  after(async () => {
    await service?.stop();
  });

  async function queriesFor(first: number): Promise<number> {
    let queries = 0;
    const count = () => void (queries += 1);
    service.db.on('query', count);
    try {
      const { body } = await postGraphQL(service.url, 'any', { query: PAGE, variables: { first } });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      assert.equal(body.data.findVirtualInterviewEvents.events.length, first);
      for (const event of body.data.findVirtualInterviewEvents.events) {
        assert.equal(event.interviewersConnection.totalCount, 2);
        assert.equal(
          event.intervieweesConnection.interviewees[0].interviewRecordsConnection.records.length,
          1,
        );
      }
    } finally {
      service.db.off('query', count);
    }
    return queries;
  }

  it('is the same for 5 events as for 100, nested interviewers, interviewees, records and outcomes included', async () => {
    const small = await queriesFor(5);
    const large = await queriesFor(100);
    console.log(`      SQL queries per page: ${small} for 5 events, ${large} for 100`);
    assert.equal(large, small);
  });
});
