import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildSchema, parse } from 'graphql';
import { ManualClock } from '../../src/clock.js';
import { CompiledExecutor, compiledExecutionStats } from '../../src/graphql/compiled-execution.js';
import type { Principal } from '../../src/graphql/context.js';
import { EVENTS_BY_ID } from '../../bench/operations.js';
import { describeEachDialect } from '../support/databases.js';
import {
  employerAppPrincipal,
  insertEventGraph,
  insertTenant,
  type EventGraph,
} from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { sqlDuring } from '../support/statements.js';

const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

/** Every field of an event, each connection through both its edges and its list. */
const EVENT_FIELDS = /* GraphQL */ `
  id title startTime endTime timezone interviewerLobbyUrl interviewLandingPageUrl
  languageCode countryCode status mediaType
  interviewersConnection {
    totalCount ${PAGE_INFO}
    edges { cursor node { id email name } }
    interviewers { id email name }
  }
  intervieweesConnection {
    totalCount ${PAGE_INFO}
    edges { cursor node { id } }
    interviewees {
      id name email intervieweeLobbyUrl status
      job { __typename ... on EmployerJob { id } ... on VirtualInterviewJobInfo { title location } }
      scheduledTime { startTime endTime }
      interviewRecordsConnection {
        ${PAGE_INFO}
        edges { cursor node { id } }
        records {
          id startTime endTime recordingUrl
          interviewee { id name }
          interviewOutcomesConnection {
            ${PAGE_INFO}
            edges { cursor node { interviewer { email } } }
            outcomes { interviewer { id email name } decision { value noteText } }
          }
        }
      }
    }
  }
`;

const EVENTS = `query Events($ids: [ID!]!) {
  virtualInterviewEvents(input: { ids: $ids }) { events { ${EVENT_FIELDS} } }
}`;

const FIND = `query Find($first: Int, $after: String, $input: FindVirtualInterviewEventsInput!) {
  findVirtualInterviewEvents(first: $first, after: $after, input: $input) {
    totalCount ${PAGE_INFO}
    edges { cursor node { id startTime } }
    events { ${EVENT_FIELDS} }
  }
}`;

/** Named fragments (nested, repeated, on a union), inline fragments, aliases and __typename. */
const FRAGMENTS = `query Fragments($ids: [ID!]!, $one: Int) {
  byId: virtualInterviewEvents(input: { ids: $ids }) {
    __typename
    events { ...When ...People id ... on VirtualInterviewEvent { title } }
  }
  again: virtualInterviewEvents(input: { ids: $ids }) { events { heading: title ...When } }
}
fragment When on VirtualInterviewEvent { start: startTime startTime endTime timezone }
fragment People on VirtualInterviewEvent {
  first: interviewersConnection(first: $one) { totalCount ${PAGE_INFO} interviewers { ...Person } }
  all: interviewersConnection { interviewers { ...Person email } }
  intervieweesConnection { interviewees { id job { ...Job } } }
}
fragment Person on VirtualInterviewInterviewer { __typename id name }
fragment Job on VirtualInterviewJob {
  __typename
  ... on EmployerJob { id }
  ... on VirtualInterviewJobInfo { title location }
}`;

const DIRECTIVES = `query Directives($ids: [ID!]!, $people: Boolean!, $times: Boolean!) {
  virtualInterviewEvents(input: { ids: $ids }) {
    events {
      id
      startTime @include(if: $times)
      endTime @skip(if: $times)
      interviewersConnection @include(if: $people) { interviewers { email } }
      ... on VirtualInterviewEvent @skip(if: $people) { intervieweesConnection { totalCount } }
      ...Title @include(if: $times)
    }
  }
}
fragment Title on VirtualInterviewEvent { title }`;

const TWO_OPERATIONS = `query Titles($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { title } } }
query Statuses($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { status mediaType } } }`;

const INTROSPECTION = `{
  __schema { queryType { name } mutationType { name } }
  __type(name: "VirtualInterviewJob") { kind name possibleTypes { name } }
  __typename
}`;

const UPDATE = `mutation Update($input: UpdateVirtualInterviewEventInput!) {
  updateVirtualInterviewEvent(input: $input) { event { id title } }
}`;
const CANCEL = `mutation Cancel($id: ID!) {
  cancelVirtualInterviewEvent(input: { id: $id }) { event { id status } }
}`;
const CREATE = `mutation Create($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { id title } }
}`;

interface Request {
  query: string;
  variables?: object;
  operationName?: string;
}

type Service = Awaited<ReturnType<typeof startTestService>>;

/** Which executor answers a request the compiled service gets from the second time on. */
type Expected = 'compiled' | 'graphql-js again' | 'graphql-js';

/** The status and text of the answer, and how many SQL statements the service ran for it. */
async function post(service: Service, token: string, request: Request) {
  const { result, sql } = await sqlDuring(service.db, async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    return { status: response.status, text: await response.text() };
  });
  return { ...result, statements: sql.length };
}

describeEachDialect(
  'compiled queries answer what graphql-js answers, byte for byte',
  (database) => {
    let reference: Service;
    let compiled: Service;
    let smallReference: Service;
    let smallCompiled: Service;
    let mine: EventGraph;
    let another: EventGraph;
    let broken: EventGraph;
    let theirs: EventGraph;
    const principals: Record<string, Principal> = {};

    before(async () => {
      const { db } = database();
      const tenant = await insertTenant(db, 'mine');
      const other = await insertTenant(db, 'other');
      const writer = await insertTenant(db, 'writer');
      mine = await insertEventGraph(db, tenant);
      another = await insertEventGraph(db, tenant, Date.UTC(2026, 2, 2, 9));
      broken = await insertEventGraph(db, tenant, Date.UTC(2026, 2, 3, 9));
      theirs = await insertEventGraph(db, other);
      // An event whose interviewer lobby token is gone: its non-null URL fails unexpectedly.
      await db('lobby_tokens').where({ event_id: broken.event.id, role: 'interviewer' }).delete();
      principals.employer = employerAppPrincipal(tenant);
      principals.writer = employerAppPrincipal(writer);
      principals.noEmployer = {
        kind: 'user',
        userId: tenant.userId,
        appId: tenant.appId,
        clientId: 'client-1',
        jti: 'jti-2',
        employerId: null,
        scopes: ['email'],
      };
      const start = (env: Record<string, string>) =>
        startTestService(database(), {
          clock: new ManualClock(Date.UTC(2026, 2, 1, 14, 40)),
          authenticate: async (token) => principals[token] ?? null,
          // One public URL for all, since it is in the answers (lobby URLs).
          env: {
            PUBLIC_URL: 'https://interviews.example.com',
            GRAPHQL_COMPILE_AFTER_EXECUTIONS: '1',
            ...env,
          },
        });
      const small = { GRAPHQL_MAX_RESPONSE_NODES: '40' };
      reference = await start({ GRAPHQL_COMPILED_QUERIES: 'off' });
      compiled = await start({});
      smallReference = await start({ ...small, GRAPHQL_COMPILED_QUERIES: 'off' });
      smallCompiled = await start(small);
    });
    after(async () => {
      for (const service of [reference, compiled, smallReference, smallCompiled]) {
        await service?.stop();
      }
    });

    /**
     * Sends `request` once to graphql-js and three times to the compiled service (graphql-js the
     * first time, compiled from the second), and expects the same status and text each time, and
     * the same statements (the reads that follow `info`'s selections: selected-parts.ts).
     */
    async function sameAnswer(
      request: Request,
      expected: Expected,
      options: { token?: string; small?: boolean } = {},
    ): Promise<any> {
      const token = options.token ?? 'employer';
      const [base, subject] = options.small
        ? [smallReference, smallCompiled]
        : [reference, compiled];
      const wanted = await post(base, token, request);
      const before = compiledExecutionStats();
      for (let time = 1; time <= 3; time += 1) {
        const answer = await post(subject, token, request);
        assert.equal(answer.status, wanted.status, `status, time ${time}`);
        assert.equal(answer.text, wanted.text, `answer, time ${time}`);
        if (expected === 'compiled') {
          assert.equal(answer.statements, wanted.statements, `statements, time ${time}`);
        }
      }
      const after = compiledExecutionStats();
      const compiledAnswers = after.compiledAnswers - before.compiledAnswers;
      const reexecuted = after.reexecuted - before.reexecuted;
      if (expected === 'compiled') {
        assert.ok(compiledAnswers >= 2, `${compiledAnswers} compiled answers`);
        assert.equal(reexecuted, 0);
      } else if (expected === 'graphql-js again') {
        assert.equal(compiledAnswers, 0);
        assert.ok(reexecuted >= 2, `${reexecuted} executed again`);
      } else {
        assert.deepEqual([compiledAnswers, reexecuted], [0, 0]);
      }
      return JSON.parse(wanted.text);
    }

    describe('answers without errors come from the compiled query', () => {
      it('every field of events by id: unknown, foreign, malformed and repeated ids', async () => {
        const ids = [mine.event.id, another.event.id, theirs.event.id, randomUUID(), 'x'];
        const body = await sameAnswer(
          { query: EVENTS, variables: { ids: [...ids, mine.event.id] } },
          'compiled',
        );
        assert.equal(body.data.virtualInterviewEvents.events.length, 6);
      });

      it('the P2 document of the benchmark', async () => {
        await sameAnswer({ query: EVENTS_BY_ID, variables: { ids: [mine.event.id] } }, 'compiled');
      });

      it('a single id where a list is declared (list coercion of a variable)', async () => {
        await sameAnswer({ query: EVENTS, variables: { ids: another.event.id } }, 'compiled');
      });

      it('pages of findVirtualInterviewEvents, with filters and sort, from variables', async () => {
        const input = {
          startTime: { after: '2026-03-01T00:00:00+02:00', before: '2026-03-03T00:00:00Z' },
          sort: [
            { field: 'END_TIME', order: 'ASC' },
            { field: 'START_TIME', order: 'DESC' },
          ],
        };
        const first = await sameAnswer({ query: FIND, variables: { first: 1, input } }, 'compiled');
        const page = first.data.findVirtualInterviewEvents;
        assert.equal(page.totalCount, 2);
        await sameAnswer(
          { query: FIND, variables: { first: null, after: page.pageInfo.endCursor, input } },
          'compiled',
        );
      });

      it('arguments written in the document, an input field’s default value included', async () => {
        await sameAnswer(
          {
            query: `{ findVirtualInterviewEvents(first: 5, input: { sort: [{ field: END_TIME }], endTime: { before: "2026-03-02T12:00:00-03:30" } }) { totalCount events { id endTime } } }`,
          },
          'compiled',
        );
      });

      it('fragments, aliases, __typename and arguments from variables', async () => {
        await sameAnswer(
          { query: FRAGMENTS, variables: { ids: [another.event.id, mine.event.id], one: 1 } },
          'compiled',
        );
      });

      it('@include and @skip from variables, either way', async () => {
        for (const [people, times] of [
          [true, false],
          [false, true],
        ]) {
          await sameAnswer(
            { query: DIRECTIVES, variables: { ids: [mine.event.id], people, times } },
            'compiled',
          );
        }
      });

      it('the operation a document names, for each of its operations', async () => {
        for (const operationName of ['Titles', 'Statuses']) {
          await sameAnswer(
            { query: TWO_OPERATIONS, operationName, variables: { ids: [mine.event.id] } },
            'compiled',
          );
        }
      });

      it('introspection', async () => {
        await sameAnswer({ query: INTROSPECTION }, 'compiled');
      });

      it('the answer budget refusing an answer that grows too large', async () => {
        const ids = [mine.event.id, another.event.id, mine.event.id, another.event.id];
        const body = await sameAnswer({ query: EVENTS, variables: { ids } }, 'compiled', {
          small: true,
        });
        assert.equal(body.data, null);
        assert.match(body.errors[0].message, /more than 40 objects/);
      });
    });

    describe('answers with errors are computed again by graphql-js', () => {
      it('a default value inside an input object given as a variable (graphql-jit refuses it)', async () => {
        const input = {
          startTime: { before: '2026-03-03T00:00:00Z' },
          sort: [{ field: 'END_TIME' }],
        };
        const body = await sameAnswer({ query: FIND, variables: { input } }, 'graphql-js again');
        assert.equal(body.errors, undefined);
      });

      it('an error thrown by a resolver (no ids)', async () => {
        const body = await sameAnswer(
          { query: EVENTS, variables: { ids: [] } },
          'graphql-js again',
        );
        assert.equal(body.errors[0].extensions.code, 'BAD_USER_INPUT');
      });

      it('a caller without an employer: FORBIDDEN', async () => {
        const body = await sameAnswer(
          { query: EVENTS_BY_ID, variables: { ids: [mine.event.id] } },
          'graphql-js again',
          { token: 'noEmployer' },
        );
        assert.equal(body.errors[0].extensions.code, 'FORBIDDEN');
      });

      it('arguments out of range, at the root and in a nested connection', async () => {
        await sameAnswer({ query: FIND, variables: { first: -1, input: {} } }, 'graphql-js again');
        await sameAnswer(
          {
            query: `query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { id interviewersConnection(first: 101) { totalCount } } } }`,
            variables: { ids: [mine.event.id, another.event.id] },
          },
          'graphql-js again',
        );
      });

      it('a cursor of another list: null propagated to the nullable event', async () => {
        const body = await sameAnswer(
          {
            query: `query($ids: [ID!]!, $after: String) { virtualInterviewEvents(input: { ids: $ids }) { events { id interviewersConnection(after: $after) { interviewers { id } } } } }`,
            variables: { ids: [mine.event.id, another.event.id], after: 'not-a-cursor' },
          },
          'graphql-js again',
        );
        assert.deepEqual(body.data.virtualInterviewEvents.events, [null, null]);
      });

      it('an unexpected failure, masked: null propagated through non-null lists to the root', async () => {
        const byId = await sameAnswer(
          { query: EVENTS, variables: { ids: [mine.event.id, broken.event.id] } },
          'graphql-js again',
        );
        assert.equal(byId.errors[0].extensions.code, 'INTERNAL_SERVER_ERROR');
        assert.equal(byId.data.virtualInterviewEvents.events[1], null);
        const found = await sameAnswer(
          { query: FIND, variables: { input: {} } },
          'graphql-js again',
        );
        assert.equal(found.data, null);
      });
    });

    describe('requests refused before execution, and mutations, are graphql-js alone', () => {
      it('variables that do not coerce, and a document that does not validate', async () => {
        await sameAnswer(
          { query: FIND, variables: { input: { startTime: { after: '2026-03-01T09:00:00' } } } },
          'graphql-js',
        );
        await sameAnswer({ query: EVENTS, variables: { ids: [{ id: 5 }] } }, 'graphql-js');
        await sameAnswer({ query: '{ virtualInterviewEvents { nope } }' }, 'graphql-js');
        await sameAnswer(
          { query: TWO_OPERATIONS, variables: { ids: [mine.event.id] } },
          'graphql-js',
        );
      });

      it('mutations answering NOT_FOUND and BAD_USER_INPUT', async () => {
        const missing = await sameAnswer(
          { query: CANCEL, variables: { id: randomUUID() } },
          'graphql-js',
        );
        assert.equal(missing.errors[0].extensions.code, 'NOT_FOUND');
        await sameAnswer(
          {
            query: UPDATE,
            variables: { input: { setTitle: { id: theirs.event.id, title: 'Mine' } } },
          },
          'graphql-js',
        );
        await sameAnswer({ query: UPDATE, variables: { input: {} } }, 'graphql-js');
      });

      it('a mutation runs once per request', async () => {
        const { db } = database();
        const count = async () =>
          Number(
            (
              await db('interview_events')
                .where({ employer_id: principals.writer!.employerId })
                .count({ n: '*' })
            )[0]!.n,
          );
        const input = {
          title: 'Written once',
          startTime: '2026-12-01T09:00:00-05:00',
          endTime: '2026-12-01T10:00:00-05:00',
          timezone: 'America/New_York',
          interviewers: [{ email: 'lee@example.com' }],
          requestMetadata: { atsName: 'Acme ATS', employerName: 'Acme' },
        };
        const before = compiledExecutionStats();
        for (let time = 0; time < 3; time += 1) {
          const { status, text } = await post(compiled, 'writer', {
            query: CREATE,
            variables: { input },
          });
          assert.equal(status, 200, text);
          assert.doesNotMatch(text, /"errors"/);
        }
        assert.equal(await count(), 3);
        assert.deepEqual(compiledExecutionStats(), before);
      });
    });
  },
);

describe('when an operation is compiled', () => {
  const schema = buildSchema('type Query { hello: String } type Mutation { touch: Int }');
  const rootValue = { hello: 'world', touch: 1 };

  /** Executes `query` `times` times, parsed once: a document of its own, like a cached one. */
  async function run(executor: CompiledExecutor, query: string, times: number) {
    const document = parse(query);
    const before = compiledExecutionStats();
    for (let time = 0; time < times; time += 1) {
      const result = await executor.execute({ schema, document, rootValue });
      assert.equal(result.errors, undefined);
    }
    const after = compiledExecutionStats();
    return {
      compilations: after.compilations - before.compilations,
      compiledAnswers: after.compiledAnswers - before.compiledAnswers,
    };
  }

  it('once graphql-js has executed it compileAfter times, and only once', async () => {
    const executor = new CompiledExecutor(schema, 3, 10);
    assert.deepEqual(await run(executor, '{ hello }', 3), { compilations: 0, compiledAnswers: 0 });
    assert.deepEqual(await run(executor, '{ hello }', 6), { compilations: 1, compiledAnswers: 3 });
    const atFirst = new CompiledExecutor(schema, 0, 10);
    assert.deepEqual(await run(atFirst, '{ hello }', 2), { compilations: 1, compiledAnswers: 2 });
  });

  it('keeps at most mostCompiled, dropping the least recently used', async () => {
    const executor = new CompiledExecutor(schema, 0, 2);
    const documents = new Map(
      ['{ hello }', '{ a: hello }', '{ b: hello }'].map((q) => [q, parse(q)]),
    );
    const once = async (query: string) => {
      const before = compiledExecutionStats().compilations;
      const result = await executor.execute({ schema, document: documents.get(query)!, rootValue });
      assert.equal(result.errors, undefined);
      return compiledExecutionStats().compilations - before;
    };
    assert.equal(await once('{ hello }'), 1);
    assert.equal(await once('{ a: hello }'), 1);
    assert.equal(await once('{ hello }'), 0);
    assert.equal(executor.compiledCount, 2);
    // A third compiles and `{ a: hello }`, used least recently, is dropped: it compiles again.
    assert.equal(await once('{ b: hello }'), 1);
    assert.equal(executor.compiledCount, 2);
    assert.equal(await once('{ hello }'), 0);
    assert.equal(await once('{ a: hello }'), 1);
    assert.equal(executor.compiledCount, 2);
  });

  it('never for a mutation', async () => {
    const executor = new CompiledExecutor(schema, 0, 10);
    const counts = await run(executor, 'mutation { touch }', 3);
    assert.deepEqual(counts, { compilations: 0, compiledAnswers: 0 });
  });
});
