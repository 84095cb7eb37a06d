import assert from 'node:assert/strict';
import { describeEachDialect } from '../support/databases.js';
import {
  employerAppPrincipal,
  insertEventGraph,
  insertTenant,
} from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';

const PAGE = `query($first: Int) {
  findVirtualInterviewEvents(input: {}, first: $first) {
    totalCount
    pageInfo { hasNextPage endCursor }
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

/** The benchmark's P2 shape (bench/operations.ts): events by id with interviewers and interviewee. */
const BY_ID = `query($ids: [ID!]!) {
  virtualInterviewEvents(input: { ids: $ids }) {
    events {
      id title status startTime endTime timezone mediaType interviewerLobbyUrl
      interviewersConnection { totalCount interviewers { id email name } }
      intervieweesConnection {
        totalCount
        interviewees {
          id name email status intervieweeLobbyUrl scheduledTime { startTime }
          job { ... on EmployerJob { id } ... on VirtualInterviewJobInfo { title location } }
        }
      }
    }
  }
}`;

describeEachDialect('SQL queries per page', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const eventIds: string[] = [];

  before(async function () {
    this.timeout(120_000);
    const tenant = await insertTenant(database().db, 'count');
    for (let i = 0; i < 100; i += 1) {
      const graph = await insertEventGraph(
        database().db,
        tenant,
        Date.UTC(2026, 0, 1) + i * 3_600_000,
      );
      eventIds.push(graph.event.id);
    }
    const principal = employerAppPrincipal(tenant);
    service = await startTestService(database(), { authenticate: async () => principal });
  });
  after(async () => {
    await service?.stop();
  });

  /** What one request answers, and the statements it ran, as `sql bindings`, in order. */
  async function run(query: string, variables: object = {}) {
    const statements: string[] = [];
    const record = (q: { sql: string; bindings?: unknown[] }) =>
      statements.push(`${q.sql} ${JSON.stringify(q.bindings ?? [])}`);
    service.db.on('query', record);
    try {
      const { body } = await postGraphQL(service.url, 'any', { query, variables });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return { data: body.data, statements };
    } finally {
      service.db.off('query', record);
    }
  }

  async function pageStatements(first: number): Promise<string[]> {
    const { data, statements } = await run(PAGE, { first });
    const { events, totalCount } = data.findVirtualInterviewEvents;
    assert.equal(totalCount, 100);
    assert.equal(events.length, first);
    for (const event of events) {
      assert.equal(event.interviewersConnection.totalCount, 2);
      const [interviewee] = event.intervieweesConnection.interviewees;
      const [record, ...others] = interviewee.interviewRecordsConnection.records;
      assert.equal(others.length, 0);
      assert.equal(record.interviewee.id, interviewee.id);
      // One per interviewer: one decided, one not yet.
      const decisions = record.interviewOutcomesConnection.outcomes.map(
        (outcome: { decision: { value: string } | null }) => outcome.decision?.value ?? null,
      );
      assert.deepEqual(decisions, [null, 'YES']);
    }
    return statements;
  }

  it('is the same for 1, 20 and 100 events, totalCount and nested fields included', async () => {
    const counts = [];
    for (const first of [1, 20, 100]) counts.push((await pageStatements(first)).length);
    console.log(`      SQL statements per page of 1, 20, 100 events: ${counts.join(', ')}`);
    assert.deepEqual(counts, [counts[0], counts[0], counts[0]]);
  });

  it('runs no statement twice in one request and reads no event of the page again', async () => {
    const statements = await pageStatements(20);
    const repeated = statements.filter((s, index) => statements.indexOf(s) !== index);
    assert.deepEqual(repeated, []);
    const eventReads = statements.filter((s) => /from .interview_events.( |$)/.test(s));
    assert.equal(eventReads.length, 1, eventReads.join('\n'));
  });

  it('counts the events only when totalCount is selected', async () => {
    const counting = (statements: string[]) => statements.filter((s) => /_counts\b/.test(s));
    const without = `{ findVirtualInterviewEvents(input: {}, first: 3) { events { id } } }`;
    assert.deepEqual(counting((await run(without)).statements), []);
    const twice = `{ findVirtualInterviewEvents(input: {}, first: 3) { a: totalCount b: totalCount } }`;
    assert.equal(counting((await run(twice)).statements).length, 1);
  });

  it('reads events by id with their interviewers, interviewee and lobby URLs in one statement', async () => {
    for (const count of [1, 20, 98]) {
      const ids = eventIds.slice(0, count);
      const { data, statements } = await run(BY_ID, { ids: [...ids, ids[0], 'not-an-event'] });
      const events = data.virtualInterviewEvents.events;
      assert.equal(events.length, count + 2);
      assert.equal(events[count + 1], null);
      assert.deepEqual(events[count], events[0]);
      for (const [index, event] of events.slice(0, count).entries()) {
        assert.equal(event.id, ids[index]);
        assert.equal(event.interviewersConnection.totalCount, 2);
        assert.deepEqual(
          event.interviewersConnection.interviewers.map((i: { email: string }) => i.email),
          ['Lee@Example.com', 'sam@example.com'],
        );
        assert.match(event.interviewerLobbyUrl, /\/lobby\/interviewer\//);
        const [interviewee] = event.intervieweesConnection.interviewees;
        assert.match(interviewee.intervieweeLobbyUrl, /\/lobby\/interviewee\//);
        assert.equal(interviewee.job.title, 'Backend engineer');
      }
      assert.equal(statements.length, 1, statements.join('\n'));
    }
  });

  it('reads events by id alone when nothing below them is selected', async () => {
    const { data, statements } = await run(
      'query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { id } } }',
      { ids: eventIds.slice(0, 3) },
    );
    assert.equal(data.virtualInterviewEvents.events.length, 3);
    assert.equal(statements.length, 1);
    assert.doesNotMatch(statements[0]!, /interviewers|interviewees|lobby_tokens/);
  });
});
