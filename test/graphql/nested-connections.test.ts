import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MAX_ADMISSIONS_PER_INTERVIEWEE } from '../../src/interviews/rules/admissions.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { postGraphQL, type GraphQLBody } from '../support/graphql-client.js';
import {
  employerAppPrincipal,
  insertEventGraph,
  insertTenant,
  type EventGraph,
} from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

interface Connection {
  totalCount?: number;
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  edges: Array<{ cursor: string; node: unknown }>;
  nodes: unknown[];
  /** The id of each node, in order (an outcome by its interviewer's, its one per record). */
  ids: string[];
}

/** One of the four nested connections: how to ask for a page of it and where it is in the answer. */
interface NestedList {
  name: string;
  /** Its flat list field. */
  nodesField: string;
  hasTotalCount: boolean;
  query: string;
  pick(data: any): any;
  idOf(node: any): string;
}

const PAGE_ARGS = '(first: $first, after: $after)';
const VARIABLES = '$ids: [ID!]!, $first: Int, $after: String';

function list(
  name: string,
  nodesField: string,
  hasTotalCount: boolean,
  wrap: (connection: string) => string,
  pick: (event: any) => any,
  node: { fields: string; idOf: (node: any) => string } = {
    fields: '{ id }',
    idOf: (item) => item.id,
  },
): NestedList {
  const fields = `${hasTotalCount ? 'totalCount' : ''} ${PAGE_INFO}
    edges { cursor node ${node.fields} } ${nodesField} ${node.fields}`;
  return {
    name,
    nodesField,
    hasTotalCount,
    idOf: node.idOf,
    query: `query(${VARIABLES}) { virtualInterviewEvents(input: { ids: $ids }) { events {
      ${wrap(`${name}${PAGE_ARGS} { ${fields} }`)} } } }`,
    pick: (data) => pick(data.virtualInterviewEvents.events[0]),
  };
}

const LISTS: NestedList[] = [
  list(
    'interviewersConnection',
    'interviewers',
    true,
    (c) => c,
    (event) => event.interviewersConnection,
  ),
  list(
    'intervieweesConnection',
    'interviewees',
    true,
    (c) => c,
    (event) => event.intervieweesConnection,
  ),
  list(
    'interviewRecordsConnection',
    'records',
    false,
    (c) => `intervieweesConnection { interviewees { ${c} } }`,
    (event) => event.intervieweesConnection.interviewees[0].interviewRecordsConnection,
  ),
  list(
    'interviewOutcomesConnection',
    'outcomes',
    false,
    (c) =>
      // The arguments apply under every record reached: page one record's outcomes at a time.
      `intervieweesConnection { interviewees { interviewRecordsConnection(first: 1) { records { ${c} } } } }`,
    (event) =>
      event.intervieweesConnection.interviewees[0].interviewRecordsConnection.records[0]
        .interviewOutcomesConnection,
    { fields: '{ interviewer { id } decision { value } }', idOf: (item) => item.interviewer.id },
  ),
];

/** The cursor these connections have always given an item: an unpaged answer keeps it. */
const legacyCursor = (id: string) => Buffer.from(`id:${id}`).toString('base64url');

/**
 * Adds interviewers, records and decisions so that every list but the interviewee's has several
 * items.
 */
async function widenGraph(database: TestDatabase, graph: EventGraph): Promise<void> {
  const { db } = database;
  const now = Date.now();
  const extraInterviewers = [2, 3, 4].map((position) => ({
    id: randomUUID(),
    event_id: graph.event.id,
    email: `extra-${position}@example.com`,
    email_normalized: `extra-${position}@example.com`,
    name: null,
    user_id: null,
    position,
    created_at: now,
  }));
  await db('interviewers').insert(extraInterviewers);
  await db('interview_records').insert(
    [1, 2].map((n) => ({
      id: randomUUID(),
      event_id: graph.event.id,
      interviewee_id: graph.interviewee.id,
      start_at: graph.event.start_at + n * 60 * 60_000,
      end_at: graph.event.start_at + n * 60 * 60_000 + 60_000,
      recording_url: null,
      created_at: graph.record.created_at + n,
    })),
  );
  // The first interviewer decides nothing: their outcome is in the list all the same.
  await db('interview_outcomes').insert(
    extraInterviewers.map((interviewer) => ({
      id: randomUUID(),
      record_id: graph.record.id,
      interviewer_id: interviewer.id,
      decision: 'MAYBE',
      note_text: null,
      created_at: now,
      updated_at: now,
    })),
  );
}

/**
 * The ids the cursors of a list's nodes name: an outcome's names its record and its interviewer
 * (an outcome exists for every interviewer, decided or not, so it has no row id of its own).
 */
function cursorIdsOf(nested: NestedList, ids: string[], recordId: string): string[] {
  if (nested.name !== 'interviewOutcomesConnection') return ids;
  return ids.map((interviewerId) => `${recordId}/${interviewerId}`);
}

describeEachDialect('nested connections, paged', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let graph: EventGraph;
  let otherGraph: EventGraph;
  let tenant: Awaited<ReturnType<typeof insertTenant>>;

  before(async () => {
    tenant = await insertTenant(database().db, 'nested');
    graph = await insertEventGraph(database().db, tenant);
    otherGraph = await insertEventGraph(database().db, tenant);
    await widenGraph(database(), graph);
    const principal = employerAppPrincipal(tenant);
    service = await startTestService(database(), { authenticate: async () => principal });
  });
  after(async () => {
    await service?.stop();
  });

  async function request(
    nested: NestedList,
    variables: { first?: number; after?: string },
    eventId = graph.event.id,
  ): Promise<GraphQLBody> {
    const { status, body } = await postGraphQL(service.url, 'any', {
      query: nested.query,
      variables: { ids: [eventId], ...variables },
    });
    assert.equal(status, 200);
    return body;
  }

  async function page(
    nested: NestedList,
    variables: { first?: number; after?: string },
    eventId?: string,
  ): Promise<Connection> {
    const body = await request(nested, variables, eventId);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const connection = nested.pick(body.data);
    const nodes: unknown[] = connection[nested.nodesField];
    return { ...connection, nodes, ids: nodes.map(nested.idOf) };
  }

  const expectedLengths: Record<string, number> = {
    interviewersConnection: 5,
    intervieweesConnection: 1,
    interviewRecordsConnection: 3,
    interviewOutcomesConnection: 5,
  };

  for (const nested of LISTS) {
    describe(nested.name, () => {
      it('answers without first and after exactly as before paging existed', async () => {
        const whole = await page(nested, {});
        assert.equal(whole.nodes.length, expectedLengths[nested.name]);
        const cursors = cursorIdsOf(nested, whole.ids, graph.record.id).map(legacyCursor);
        assert.deepEqual(whole.pageInfo, {
          hasNextPage: false,
          hasPreviousPage: false,
          startCursor: cursors[0],
          endCursor: cursors.at(-1),
        });
        assert.deepEqual(
          whole.edges,
          whole.nodes.map((node, index) => ({ cursor: cursors[index], node })),
        );
        if (nested.hasTotalCount) assert.equal(whole.totalCount, whole.nodes.length);
      });

      for (const first of [1, 2]) {
        it(`pages to the end with first: ${first}, giving the unpaged list`, async () => {
          const whole = await page(nested, {});
          const collected: Connection['edges'] = [];
          let after: string | undefined;
          for (let pages = 0; pages <= whole.nodes.length; pages += 1) {
            const current = await page(nested, { first, ...(after && { after }) });
            assert.ok(current.edges.length <= first);
            assert.deepEqual(
              current.nodes,
              current.edges.map((edge) => edge.node),
            );
            assert.equal(current.pageInfo.hasPreviousPage, after !== undefined);
            assert.equal(current.pageInfo.startCursor, current.edges[0]?.cursor ?? null);
            assert.equal(current.pageInfo.endCursor, current.edges.at(-1)?.cursor ?? null);
            if (nested.hasTotalCount) assert.equal(current.totalCount, whole.nodes.length);
            collected.push(...current.edges);
            if (!current.pageInfo.hasNextPage) break;
            after = current.pageInfo.endCursor!;
          }
          assert.deepEqual(collected, whole.edges);
        });
      }

      it('gives an empty page with first: 0, telling that items follow', async () => {
        const empty = await page(nested, { first: 0 });
        assert.deepEqual(empty.edges, []);
        assert.deepEqual(empty.pageInfo, {
          hasNextPage: true,
          hasPreviousPage: false,
          startCursor: null,
          endCursor: null,
        });
      });

      it('without first, runs from after to the end', async () => {
        const whole = await page(nested, {});
        const rest = await page(nested, { after: whole.edges[0]!.cursor });
        assert.deepEqual(rest.edges, whole.edges.slice(1));
        assert.equal(rest.pageInfo.hasNextPage, false);
        assert.equal(rest.pageInfo.hasPreviousPage, true);
      });
    });
  }

  describe('refuses bad paging arguments with BAD_USER_INPUT', () => {
    async function refused(
      nested: NestedList,
      variables: { first?: number; after?: string },
      message: RegExp,
    ) {
      const body = await request(nested, variables);
      assert.equal(body.errors?.length, 1, JSON.stringify(body));
      const [error] = body.errors!;
      assert.equal(error!.extensions.code, 'BAD_USER_INPUT');
      assert.match(error!.message, message);
      assert.equal(error!.path?.at(-1), nested.name);
    }
    const [interviewers, , records, outcomes] = LISTS as [
      NestedList,
      NestedList,
      NestedList,
      NestedList,
    ];

    it('a negative first or one above 100', async () => {
      for (const nested of LISTS) {
        await refused(nested, { first: -1 }, /first must be between 0 and 100, got -1/);
        await refused(nested, { first: 101 }, /first must be between 0 and 100, got 101/);
      }
    });

    it('a malformed, empty or re-spelled cursor', async () => {
      const notACursor = /after is not a cursor of this interviewersConnection/;
      await refused(interviewers, { after: 'garbage' }, notACursor);
      await refused(interviewers, { after: '' }, notACursor);
      await refused(interviewers, { after: 'x'.repeat(5000) }, notACursor);
      const valid = legacyCursor(graph.interviewers[0]!.id);
      // Standard base64 with padding names the same bytes but is not the spelling issued.
      const respelled = `${valid}==`;
      await refused(interviewers, { after: respelled }, notACursor);
      await refused(interviewers, { after: legacyCursor('') }, notACursor);
    });

    it("a cursor of another event's list or of another connection", async () => {
      const foreign = await page(interviewers, {}, otherGraph.event.id);
      await refused(
        interviewers,
        { after: foreign.edges[0]!.cursor },
        /not a cursor of this interviewersConnection/,
      );
      const ownInterviewers = await page(interviewers, {});
      await refused(
        outcomes,
        { after: ownInterviewers.edges[0]!.cursor },
        /not a cursor of this interviewOutcomesConnection/,
      );
      const ownRecords = await page(records, {});
      // Every record of the event has an outcome per interviewer: another record's is not this one's.
      const ownOutcomes = await page(outcomes, {});
      const anotherRecordsOutcome = legacyCursor(`${ownRecords.ids[1]}/${ownOutcomes.ids[0]}`);
      assert.notEqual(ownRecords.ids[1], graph.record.id);
      await refused(
        outcomes,
        { after: anotherRecordsOutcome },
        /not a cursor of this interviewOutcomesConnection/,
      );
      await refused(
        interviewers,
        { after: ownRecords.edges[0]!.cursor },
        /not a cursor of this interviewersConnection/,
      );
    });
  });

  it("never answers more than a list's bound: records stored past the cap come on later pages", async () => {
    // An interviewee with more records than the lobby now allows, as written before the cap.
    const past = await insertEventGraph(database().db, tenant);
    const rows = Array.from({ length: 2 * MAX_ADMISSIONS_PER_INTERVIEWEE + 5 }, (_, n) => ({
      id: randomUUID(),
      event_id: past.event.id,
      interviewee_id: past.interviewee.id,
      start_at: past.event.start_at + n * 60_000,
      end_at: past.event.start_at + n * 60_000 + 30_000,
      recording_url: null,
      created_at: past.record.created_at + 1 + n,
    }));
    await database().db('interview_records').insert(rows);
    const records = LISTS[2]!;
    const seen: string[] = [];
    let after: string | undefined;
    for (const first of [undefined, 100, undefined]) {
      const connection = await page(records, { first, after }, past.event.id);
      assert.ok(connection.nodes.length <= MAX_ADMISSIONS_PER_INTERVIEWEE);
      seen.push(...connection.ids);
      after = connection.pageInfo.endCursor ?? undefined;
      assert.equal(connection.pageInfo.hasNextPage, seen.length < rows.length + 1);
    }
    assert.deepEqual(seen, [past.record.id, ...rows.map((row) => row.id)]);
  });

  it('pages with the same SQL statements as the unpaged request', async () => {
    const statements = async (variables: object) => {
      const seen: string[] = [];
      const record = (q: { sql: string }) => void seen.push(q.sql);
      service.db.on('query', record);
      try {
        const { body } = await postGraphQL(service.url, 'any', {
          query: LISTS[3]!.query,
          variables: { ids: [graph.event.id], ...variables },
        });
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      } finally {
        service.db.off('query', record);
      }
      return seen;
    };
    const whole = await statements({});
    const firstPage = await statements({ first: 1 });
    assert.deepEqual(firstPage, whole);
  });

  it('walks every interviewer with a Relay-style client loop over plain fetch', async () => {
    const query = `query Interviewers($ids: [ID!]!, $first: Int, $after: String) {
      virtualInterviewEvents(input: { ids: $ids }) {
        events { interviewersConnection(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          edges { node { id email } }
        } }
      }
    }`;
    /** What a Relay client's pagination does: fetch, append, follow endCursor while there is more. */
    async function* pages(first: number) {
      let after: string | null = null;
      do {
        const response = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { authorization: 'Bearer any', 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables: { ids: [graph.event.id], first, after } }),
        });
        const { data, errors } = (await response.json()) as { data: any; errors?: unknown };
        assert.equal(errors, undefined);
        const connection = data.virtualInterviewEvents.events[0].interviewersConnection;
        yield connection.edges.map((edge: { node: { email: string } }) => edge.node.email);
        after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
      } while (after !== null);
    }
    const emails: string[] = [];
    let fetched = 0;
    for await (const batch of pages(2)) {
      emails.push(...batch);
      fetched += 1;
    }
    assert.equal(fetched, 3);
    const whole = await page(LISTS[0]!, {});
    const stored = await database()
      .db('interviewers')
      .whereIn('id', whole.ids)
      .orderBy('position')
      .select('email');
    assert.deepEqual(
      emails,
      stored.map((row: { email: string }) => row.email),
    );
  });
});
