import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../src/graphql/context.js';
import { describeEachDialect } from '../support/databases.js';
import { insertEventGraph, insertTenant, type EventGraph } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';
import { ManualClock } from '../../src/clock.js';

const EVERY_EVENT_FIELD = /* GraphQL */ `
  query Events($ids: [ID!]!) {
    virtualInterviewEvents(input: { ids: $ids }) {
      events {
        id
        title
        startTime
        endTime
        timezone
        interviewerLobbyUrl
        interviewLandingPageUrl
        languageCode
        countryCode
        status
        mediaType
        interviewersConnection {
          totalCount
          pageInfo {
            hasNextPage
            hasPreviousPage
            startCursor
            endCursor
          }
          edges {
            cursor
            node {
              id
              email
              name
            }
          }
          interviewers {
            id
            email
            name
          }
        }
        intervieweesConnection {
          totalCount
          pageInfo {
            hasNextPage
            hasPreviousPage
            startCursor
            endCursor
          }
          edges {
            cursor
            node {
              id
            }
          }
          interviewees {
            id
            name
            email
            intervieweeLobbyUrl
            status
            job {
              __typename
              ... on EmployerJob {
                id
              }
              ... on VirtualInterviewJobInfo {
                title
                location
              }
            }
            scheduledTime {
              startTime
              endTime
            }
            interviewRecordsConnection {
              pageInfo {
                hasNextPage
                hasPreviousPage
                startCursor
                endCursor
              }
              edges {
                cursor
                node {
                  id
                }
              }
              records {
                id
                startTime
                endTime
                recordingUrl
                interviewee {
                  id
                  name
                }
                interviewOutcomesConnection {
                  pageInfo {
                    hasNextPage
                    endCursor
                  }
                  edges {
                    cursor
                    node {
                      interviewer {
                        email
                      }
                    }
                  }
                  outcomes {
                    interviewer {
                      id
                      email
                      name
                    }
                    decision {
                      value
                      noteText
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

describeEachDialect('Interview API fields over HTTP', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let mine: EventGraph;
  let another: EventGraph;
  let theirs: EventGraph;
  const principals: Record<string, Principal> = {};

  before(async () => {
    const { db } = database();
    const tenant = await insertTenant(db, 'mine');
    const other = await insertTenant(db, 'other');
    mine = await insertEventGraph(db, tenant);
    another = await insertEventGraph(db, tenant, Date.UTC(2026, 2, 2, 9));
    theirs = await insertEventGraph(db, other);
    principals.employer = {
      kind: 'app',
      appId: tenant.appId,
      clientId: 'client-1',
      jti: 'jti-1',
      ownerUserId: tenant.userId,
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    // A 3-legged token before an employer was chosen: the Interview API's scope, no employer.
    principals.noEmployer = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'client-1',
      jti: 'jti-2',
      employerId: null,
      scopes: ['email', 'employer_access'],
    };
    service = await startTestService(database(), {
      clock: new ManualClock(Date.UTC(2026, 2, 1, 14, 40)),
      authenticate: async (token) => principals[token] ?? null,
    });
  });
  after(async () => {
    await service?.stop();
  });

  async function graphql(token: string, query: string, variables: object) {
    return (await postGraphQL(service.url, token, { query, variables })).body;
  }

  it('resolves every field from the stored rows, with the caller offsets', async () => {
    const { data, errors } = await graphql('employer', EVERY_EVENT_FIELD, { ids: [mine.event.id] });
    assert.equal(errors, undefined, JSON.stringify(errors));
    const [event] = data.virtualInterviewEvents.events;
    const base = service.config.publicUrl;
    assert.equal(event.id, mine.event.id);
    assert.equal(event.title, 'Backend engineer – first round');
    assert.equal(event.startTime, '2026-03-01T09:30:00-05:00');
    assert.equal(event.endTime, '2026-03-01T20:45:00+05:30');
    assert.equal(event.timezone, 'America/New_York');
    assert.equal(event.interviewerLobbyUrl, `${base}/lobby/interviewer/${mine.tokens.interviewer}`);
    assert.equal(event.interviewLandingPageUrl, `${base}/interviews/${mine.tokens.landing}`);
    assert.deepEqual(
      [event.languageCode, event.countryCode, event.status, event.mediaType],
      ['en', 'US', 'STARTED', 'VIDEO'],
    );

    const interviewers = event.interviewersConnection;
    assert.equal(interviewers.totalCount, 2);
    assert.deepEqual(interviewers.interviewers, [
      { id: mine.interviewers[0]!.id, email: 'Lee@Example.com', name: 'Lee' },
      { id: mine.interviewers[1]!.id, email: 'sam@example.com', name: null },
    ]);
    assert.deepEqual(
      interviewers.edges.map((edge: { node: unknown }) => edge.node),
      interviewers.interviewers,
    );
    assert.equal(interviewers.pageInfo.hasNextPage, false);
    assert.equal(interviewers.pageInfo.startCursor, interviewers.edges[0].cursor);
    assert.equal(interviewers.pageInfo.endCursor, interviewers.edges[1].cursor);

    assert.equal(event.intervieweesConnection.totalCount, 1);
    const [interviewee] = event.intervieweesConnection.interviewees;
    assert.equal(interviewee.id, mine.interviewee.id);
    assert.equal(interviewee.email, 'casey@example.com');
    assert.equal(
      interviewee.intervieweeLobbyUrl,
      `${base}/lobby/interviewee/${mine.tokens.interviewee}`,
    );
    assert.equal(interviewee.status, 'INTERVIEWED');
    assert.deepEqual(interviewee.job, {
      __typename: 'VirtualInterviewJobInfo',
      title: 'Backend engineer',
      location: 'Remote',
    });
    assert.deepEqual(interviewee.scheduledTime, {
      startTime: event.startTime,
      endTime: event.endTime,
    });

    const [record] = interviewee.interviewRecordsConnection.records;
    assert.equal(record.id, mine.record.id);
    assert.equal(record.startTime, '2026-03-01T09:31:00-05:00');
    assert.equal(record.endTime, '2026-03-01T10:00:00-05:00');
    assert.equal(record.recordingUrl, null);
    assert.deepEqual(record.interviewee, { id: mine.interviewee.id, name: 'Casey Candidate' });
    // One outcome per interviewer of the event, in their order: Lee has not decided.
    assert.deepEqual(record.interviewOutcomesConnection.outcomes, [
      {
        interviewer: { id: mine.interviewers[0]!.id, email: 'Lee@Example.com', name: 'Lee' },
        decision: null,
      },
      {
        interviewer: { id: mine.interviewers[1]!.id, email: 'sam@example.com', name: null },
        decision: { value: 'YES', noteText: 'Strong systems design.' },
      },
    ]);
  });

  it('keeps the order of the ids, with null for unknown ids and other employers', async () => {
    const ids = [another.event.id, randomUUID(), theirs.event.id, mine.event.id];
    const { data } = await graphql(
      'employer',
      'query($ids:[ID!]!){ virtualInterviewEvents(input:{ids:$ids}) { events { id } } }',
      { ids },
    );
    assert.deepEqual(data.virtualInterviewEvents.events, [
      { id: another.event.id },
      null,
      null,
      { id: mine.event.id },
    ]);
  });

  it('reads a repeated id once and answers it in each of its places', async () => {
    const statements: Array<{ sql: string; bindings?: unknown[] }> = [];
    const listener = (query: { sql: string; bindings?: unknown[] }) => void statements.push(query);
    const ids = [mine.event.id, randomUUID(), mine.event.id, another.event.id, mine.event.id];
    service.db.on('query', listener);
    try {
      const { data, errors } = await graphql('employer', EVERY_EVENT_FIELD, { ids });
      assert.equal(errors, undefined, JSON.stringify(errors));
      const events = data.virtualInterviewEvents.events;
      assert.deepEqual(
        events.map((event: { id: string } | null) => event?.id ?? null),
        [mine.event.id, null, mine.event.id, another.event.id, mine.event.id],
      );
      assert.deepEqual(events[2], events[0]);
      assert.deepEqual(events[4], events[0]);
    } finally {
      service.db.off('query', listener);
    }
    const eventReads = statements.filter(({ sql }) => /from [`"]?interview_events\b/i.test(sql));
    assert.equal(eventReads.length, 1, eventReads.map(({ sql }) => sql).join('\n'));
    // Each distinct id is asked for (the statement may repeat one into spare slots).
    const asked = new Set(
      eventReads[0]!.bindings?.filter((value) => ids.includes(value as string)),
    );
    assert.deepEqual(asked, new Set(ids), 'the three distinct ids');
    // Five ids, three distinct: the employer and four slots (three ids, one spare), not eight.
    assert.equal(eventReads[0]!.bindings?.length, 5, 'repeated ids are asked for once');
  });

  it('costs the same number of SQL queries for one event as for several', async () => {
    const count = async (ids: string[]) => {
      let queries = 0;
      const listener = () => void (queries += 1);
      service.db.on('query', listener);
      try {
        const { errors } = await graphql('employer', EVERY_EVENT_FIELD, { ids });
        assert.equal(errors, undefined);
      } finally {
        service.db.off('query', listener);
      }
      return queries;
    };
    const one = await count([mine.event.id]);
    const two = await count([mine.event.id, another.event.id]);
    assert.ok(one > 0);
    assert.equal(two, one);
  });

  it('refuses a token without an employer with FORBIDDEN and says how to get one', async () => {
    const { data, errors } = await graphql('noEmployer', EVERY_EVENT_FIELD, {
      ids: [mine.event.id],
    });
    assert.equal(data, null);
    assert.equal(errors![0]!.extensions.code, 'FORBIDDEN');
    assert.match(errors![0]!.message, /employer parameter/);
  });

  it('refuses more than 100 ids with BAD_USER_INPUT', async () => {
    const ids = Array.from({ length: 101 }, () => randomUUID());
    const { errors } = await graphql(
      'employer',
      'query($ids:[ID!]!){ virtualInterviewEvents(input:{ids:$ids}) { events { id } } }',
      { ids },
    );
    assert.equal(errors![0]!.extensions.code, 'BAD_USER_INPUT');
  });
});
