import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getIntrospectionQuery, getOperationAST, parse } from 'graphql';
import { ConfigError, DEFAULT_GRAPHQL_LIMITS, loadConfig } from '../../src/config.js';
import { DocumentCache, documentCacheStats } from '../../src/graphql/document.js';
import { operationCost } from '../../src/graphql/limits/cost-limit.js';
import type { Principal } from '../../src/oauth/principal.js';
import { createTestDatabase } from '../support/databases.js';
import { gatewayApis } from '../support/gateway-schema.js';
import { insertEventGraph, insertTenant, type EventGraph } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { ManualClock } from '../../src/clock.js';
import { postGraphQL, type GraphQLRequest } from '../support/graphql-client.js';

interface GraphQLBody {
  data?: any;
  errors?: Array<{ message: string; extensions: { code: string } }>;
}

type TestService = Awaited<ReturnType<typeof startTestService>>;
type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

const TOKEN = 'limits-token';

/** POSTs a GraphQL request (possibly malformed) as the test principal; see postGraphQL. */
async function post(
  service: TestService,
  request: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: GraphQLBody }> {
  const { status, body } = await postGraphQL(
    service.url,
    TOKEN,
    request as GraphQLRequest,
    headers,
  );
  return { status, body: body as GraphQLBody };
}

function assertRefused(
  response: { status: number; body: GraphQLBody },
  code: string,
  message: RegExp,
): void {
  assert.equal(response.status, 200);
  assert.equal(response.body.data, undefined, 'nothing was executed');
  assert.equal(response.body.errors?.length, 1, JSON.stringify(response.body.errors));
  const [error] = response.body.errors ?? [];
  assert.equal(error?.extensions.code, code);
  assert.match(error?.message ?? '', message);
}

function assertSucceeded(response: { status: number; body: GraphQLBody }): void {
  assert.equal(response.status, 200);
  assert.equal(response.body.errors, undefined, JSON.stringify(response.body.errors));
  assert.ok(response.body.data);
}

function principalOf(tenant: Awaited<ReturnType<typeof insertTenant>>): Principal {
  return {
    kind: 'app',
    appId: tenant.appId,
    clientId: 'limits-client',
    jti: 'limits-jti',
    ownerUserId: tenant.userId,
    employerId: tenant.employerId,
    scopes: ['employer_access'],
  };
}

/**
 * A query whose fields nest exactly `depth` levels: down from virtualInterviewEvents to the
 * interviewee, then round the record → interviewee cycle inside a fragment, ending on
 * `__typename`.
 */
function queryOfDepth(depth: number): string {
  const cycle = ['interviewRecordsConnection', 'records', 'interviewee'];
  const inFragment = Array.from({ length: depth - 5 }, (_, level) => cycle[level % 3]!);
  const nest = (fields: string[], leaf: string) =>
    fields.reduceRight((inner, field) => `${field} { ${inner} }`, leaf);
  return `query Deep($ids: [ID!]!) {
    ${nest(['virtualInterviewEvents(input: { ids: $ids })', 'events', 'intervieweesConnection', 'interviewees'], '...Deeper')}
  }
  fragment Deeper on VirtualInterviewInterviewee { ${nest(inFragment, '__typename')} }`;
}

function queryWithAliases(count: number): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ')} }`;
}

/**
 * A valid document of 9 × `fragments` + 2 tokens: `{ ...F0 ...F1 … }` and, for each spread,
 * `fragment Fi on Query { __typename }`. `extraTokens` more `__typename` fields go in the
 * operation.
 */
function queryWithTokens(fragments: number, extraTokens = 0): string {
  const names = Array.from({ length: fragments }, (_, i) => `F${i}`);
  const extra = Array.from({ length: extraTokens }, () => '__typename').join(' ');
  return [
    `{ ${names.map((name) => `...${name}`).join(' ')} ${extra} }`,
    ...names.map((name) => `fragment ${name} on Query { __typename }`),
  ].join('\n');
}

/**
 * Two pages of events with every outcome of every record, through both edges (4 objects each) and
 * lists (3 each). Each event may hold 1 + (1 + (1 + (1 + 10 × (1 + (1 + 50 × 4 + 50 × 3))))) =
 * 3,524 objects, so the operation costs 2 × (1 + 3,524 × first).
 */
const TWO_PAGES_OF_OUTCOMES = `query Outcomes($first: Int) {
  early: findVirtualInterviewEvents(first: $first, input: {}) { ...Outcomes }
  late: findVirtualInterviewEvents(first: $first, input: { sort: [{ field: START_TIME, order: DESC }] }) { ...Outcomes }
}
fragment Outcomes on VirtualInterviewEventsConnection {
  events {
    intervieweesConnection {
      interviewees {
        interviewRecordsConnection {
          records {
            interviewOutcomesConnection {
              edges { node { interviewer { email } decision { value } } }
              outcomes { interviewer { email } decision { value } }
            }
          }
        }
      }
    }
  }
}`;

describe('GraphQL gateway limits over HTTP', () => {
  let database: TestDatabase;
  let service: TestService;
  let events: EventGraph[];

  before(async () => {
    database = await createTestDatabase('sqlite');
    const tenant = await insertTenant(database.db, 'limits');
    events = [
      await insertEventGraph(database.db, tenant, Date.UTC(2026, 2, 1, 9)),
      await insertEventGraph(database.db, tenant, Date.UTC(2026, 2, 2, 9)),
    ];
    const principal = principalOf(tenant);
    service = await startTestService(database, {
      clock: new ManualClock(Date.UTC(2026, 2, 1, 9, 10)),
      authenticate: async (token) => (token === TOKEN ? principal : null),
    });
  });
  after(async () => {
    await service?.stop();
    await database?.dispose();
  });

  describe('depth', () => {
    it(`accepts ${DEFAULT_GRAPHQL_LIMITS.maxDepth} levels and refuses one more, following fragments`, async () => {
      const max = DEFAULT_GRAPHQL_LIMITS.maxDepth;
      const ids = [events[0]!.event.id];
      const deepest = await post(service, { query: queryOfDepth(max), variables: { ids } });
      assertSucceeded(deepest);
      assert.equal(deepest.body.data.virtualInterviewEvents.events.length, 1);

      const tooDeep = await post(service, { query: queryOfDepth(max + 1), variables: { ids } });
      assertRefused(
        tooDeep,
        'GRAPHQL_VALIDATION_FAILED',
        new RegExp(
          `^Operation "Deep" nests fields ${max + 1} levels deep; the limit is ${max}\\.$`,
        ),
      );
    });

    it('answers fragment cycles with a validation error', async () => {
      const response = await post(service, {
        query: '{ ...A } fragment A on Query { ...B } fragment B on Query { __typename ...A }',
      });
      assert.equal(response.status, 200);
      assert.ok(
        response.body.errors?.some(({ message }) => /Cannot spread fragment "A"/.test(message)),
      );
      assert.ok(
        response.body.errors?.every(
          ({ extensions }) => extensions.code === 'GRAPHQL_VALIDATION_FAILED',
        ),
      );
    });

    it('leaves introspection to graphql’s own introspection depth rule', async () => {
      const response = await post(service, { query: getIntrospectionQuery() });
      assertSucceeded(response);
      assert.equal(response.body.data.__schema.queryType.name, 'Query');
    });
  });

  describe('aliases', () => {
    it(`accepts ${DEFAULT_GRAPHQL_LIMITS.maxAliases} aliases and refuses one more`, async () => {
      const max = DEFAULT_GRAPHQL_LIMITS.maxAliases;
      const most = await post(service, { query: queryWithAliases(max) });
      assertSucceeded(most);
      assert.equal(Object.keys(most.body.data).length, max);

      const tooMany = await post(service, { query: queryWithAliases(max + 1) });
      assertRefused(
        tooMany,
        'GRAPHQL_VALIDATION_FAILED',
        new RegExp(`^The query uses ${max + 1} aliases; the limit is ${max}\\.$`),
      );
    });
  });

  describe('tokens', () => {
    it(`parses ${DEFAULT_GRAPHQL_LIMITS.maxTokens} tokens and stops at one more`, async () => {
      assert.equal(DEFAULT_GRAPHQL_LIMITS.maxTokens, 2000, 'the documents below are sized for it');
      const most = await post(service, { query: queryWithTokens(222) });
      assertSucceeded(most);
      assert.deepEqual(most.body.data, { __typename: 'Query' });

      const tooLong = await post(service, { query: queryWithTokens(222, 1) });
      assertRefused(
        tooLong,
        'GRAPHQL_PARSE_FAILED',
        /^The document is longer than the limit of 2000 tokens\.$/,
      );
    });
  });

  describe('cost', () => {
    it('accepts a `first` just under the limit and refuses the next, naming the cost', async () => {
      assert.equal(DEFAULT_GRAPHQL_LIMITS.maxCost, 200_000, 'the pages below are sized for it');
      const under = await post(service, { query: TWO_PAGES_OF_OUTCOMES, variables: { first: 28 } });
      assertSucceeded(under);
      assert.equal(under.body.data.early.events.length, 2);

      const over = await post(service, { query: TWO_PAGES_OF_OUTCOMES, variables: { first: 29 } });
      assertRefused(
        over,
        'BAD_USER_INPUT',
        /^Operation "Outcomes" may return up to 204394 objects; the limit is 200000\. Ask for fewer items/,
      );
    });

    it('runs for the selected operation only', async () => {
      const document = `query Cheap { __typename } ${TWO_PAGES_OF_OUTCOMES}`;
      const variables = { first: 100 };
      assertSucceeded(await post(service, { query: document, operationName: 'Cheap', variables }));
      assertRefused(
        await post(service, { query: document, operationName: 'Outcomes', variables }),
        'BAD_USER_INPUT',
        /may return up to/,
      );
    });
  });

  describe('document cache', () => {
    it('answers a bad query the same way twice, validating it once', async () => {
      const query = `{ noSuchField${randomUUID().replaceAll('-', '')} }`;
      const before = documentCacheStats();
      const first = await post(service, { query });
      const between = documentCacheStats();
      const second = await post(service, { query });
      const after = documentCacheStats();

      assertRefused(first, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "noSuchField/);
      assert.deepEqual(second, first);
      assert.equal(between.misses - before.misses, 1, 'the first request validates');
      assert.equal(after.misses, between.misses, 'the second does not');
      assert.equal(after.hits - between.hits, 1);
    });

    it('runs a cached mutation document again for each request, with its own variables', async () => {
      const cancel = `mutation Cancel($id: ID!) {
        cancelVirtualInterviewEvent(input: { id: $id }) { event { id status } }
      }`;
      const before = documentCacheStats();
      for (const { event } of events) {
        const response = await post(service, { query: cancel, variables: { id: event.id } });
        assertSucceeded(response);
        assert.deepEqual(response.body.data.cancelVirtualInterviewEvent.event, {
          id: event.id,
          status: 'CANCELLED',
        });
      }
      const after = documentCacheStats();
      assert.equal(after.hits - before.hits, 1, 'the second request reused the document');
      const stored = await database.db('interview_events').select('status');
      assert.deepEqual(
        stored.map((row: { status: string }) => row.status),
        ['CANCELLED', 'CANCELLED'],
      );
    });

    it('runs whichever operation of a cached document operationName names', async () => {
      const document = `
        query Typename { __typename }
        query Titles($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { id title } } }`;
      const typename = await post(service, { query: document, operationName: 'Typename' });
      assertSucceeded(typename);
      assert.deepEqual(typename.body.data, { __typename: 'Query' });

      const id = events[1]!.event.id;
      const titles = await post(service, {
        query: document,
        operationName: 'Titles',
        variables: { ids: [id] },
      });
      assertSucceeded(titles);
      assert.deepEqual(titles.body.data.virtualInterviewEvents.events, [
        { id, title: events[1]!.event.title },
      ]);

      assertRefused(
        await post(service, { query: document }),
        'BAD_USER_INPUT',
        /^Must provide operation name if query contains multiple operations\.$/,
      );
      assertRefused(
        await post(service, { query: document, operationName: 'Nope' }),
        'BAD_USER_INPUT',
        /^Unknown operation named "Nope"\.$/,
      );
    });
  });

  describe('request errors', () => {
    it('reports bad variable values as BAD_USER_INPUT, with 400 for graphql-response+json', async () => {
      const request = {
        query: 'query Q($name: String!) { __type(name: $name) { name } }',
        variables: { name: null },
      };
      assertRefused(await post(service, request), 'BAD_USER_INPUT', /"\$name" of non-null type/);

      const strict = await post(service, request, {
        accept: 'application/graphql-response+json',
      });
      assert.equal(strict.status, 400);
      assert.equal(strict.body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT');
    });

    it('answers malformed request parameters with 400 and a message naming the parameter', async () => {
      const missing = await post(service, { variables: {} });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, {
        errors: [{ message: 'Missing query', extensions: { code: 'BAD_USER_INPUT' } }],
      });
      const badVariables = await post(service, { query: '{ __typename }', variables: [1] });
      assert.equal(badVariables.status, 400);
      assert.equal(
        badVariables.body.errors?.[0]?.message,
        '"variables" must be a JSON object or null',
      );
    });
  });
});

describe('GraphQL error masking over HTTP', () => {
  let database: TestDatabase;
  let service: TestService;

  before(async () => {
    database = await createTestDatabase('sqlite');
    const principal = principalOf(await insertTenant(database.db, 'masking'));
    service = await startTestService(database, {
      clock: new ManualClock(Date.UTC(2026, 2, 1, 9, 10)),
      authenticate: async (token) => (token === TOKEN ? principal : null),
    });
    // Every read of events now fails inside a resolver with an error no one planned for.
    await database.db.schema.renameTable('interview_events', 'interview_events_gone');
  });
  after(async () => {
    await service?.stop();
    await database?.dispose();
  });

  it('answers an unexpected resolver error with a generic message and no details', async () => {
    const response = await post(service, {
      query: '{ findVirtualInterviewEvents(input: {}) { totalCount } }',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.errors?.map(({ message, extensions }) => ({ message, extensions })),
      [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    );
    assert.doesNotMatch(JSON.stringify(response.body), /stack|interview_events|SQLITE/i);
  });
});

describe('GraphQL limit settings', () => {
  it('come from GRAPHQL_* variables, with the documented defaults', () => {
    assert.deepEqual(loadConfig({}).graphql, DEFAULT_GRAPHQL_LIMITS);
    assert.deepEqual(
      loadConfig({
        GRAPHQL_MAX_DEPTH: '8',
        GRAPHQL_MAX_ALIASES: '0',
        GRAPHQL_MAX_TOKENS: '500',
        GRAPHQL_MAX_COST: '1000',
        GRAPHQL_DOCUMENT_CACHE_SIZE: '0',
        GRAPHQL_MAX_RESPONSE_NODES: '300',
        GRAPHQL_MAX_RESPONSE_BYTES: '4096',
        GRAPHQL_COMPILED_QUERIES: 'off',
        GRAPHQL_COMPILE_AFTER_EXECUTIONS: '0',
        GRAPHQL_COMPILED_QUERIES_MAX: '5',
      }).graphql,
      {
        maxDepth: 8,
        maxAliases: 0,
        maxTokens: 500,
        maxCost: 1000,
        documentCacheSize: 0,
        maxResponseNodes: 300,
        maxResponseBytes: 4096,
        compiledQueries: false,
        compileAfterExecutions: 0,
        compiledQueriesMax: 5,
      },
    );
    assert.throws(
      () => loadConfig({ GRAPHQL_MAX_COST: '0', GRAPHQL_MAX_DEPTH: 'deep' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /GRAPHQL_MAX_COST/.test(error.message) &&
        /GRAPHQL_MAX_DEPTH: .*\(got "deep"\)/.test(error.message),
    );
  });

  const { schema } = gatewayApis;

  it('are what the document cache enforces', () => {
    const cache = new DocumentCache(schema, {
      maxDepth: 2,
      maxAliases: 1,
      maxTokens: 20,
      documentCacheSize: 10,
    });
    const messages = (query: string) => {
      const prepared = cache.prepare(query);
      return 'errors' in prepared ? prepared.errors.map(({ message }) => message) : [];
    };
    assert.deepEqual(messages('{ a: __typename }'), []);
    assert.deepEqual(messages('{ a: __typename b: __typename }'), [
      'The query uses 2 aliases; the limit is 1.',
    ]);
    assert.deepEqual(messages('{ virtualInterviewEvents(input: { ids: [] }) { __typename } }'), []);
    assert.deepEqual(messages('{ virtualInterviewEvents(input: { ids: [] }) { events { id } } }'), [
      'The query nests fields 3 levels deep; the limit is 2.',
    ]);
    assert.deepEqual(messages(`{ ${'a '.repeat(19)}}`), [
      'The document is longer than the limit of 20 tokens.',
    ]);
  });

  it('keep the least recently used documents, up to the configured number', () => {
    const cache = new DocumentCache(schema, { ...DEFAULT_GRAPHQL_LIMITS, documentCacheSize: 2 });
    const misses = (queries: string[]) => {
      const before = documentCacheStats().misses;
      for (const query of queries) cache.prepare(query);
      return documentCacheStats().misses - before;
    };
    assert.equal(misses(['{ a: __typename }', '{ b: __typename }', '{ a: __typename }']), 2);
    assert.equal(misses(['{ c: __typename }']), 1, 'evicts b, the least recently used');
    assert.equal(misses(['{ a: __typename }', '{ c: __typename }']), 0);
    assert.equal(misses(['{ b: __typename }']), 1);

    const off = new DocumentCache(schema, { ...DEFAULT_GRAPHQL_LIMITS, documentCacheSize: 0 });
    const before = documentCacheStats().misses;
    off.prepare('{ __typename }');
    off.prepare('{ __typename }');
    assert.equal(documentCacheStats().misses - before, 2);
  });

  it('price lists by `first`, by the number of ids and by the bounds of nested connections', () => {
    const cost = (query: string, variables: Record<string, unknown> = {}) => {
      const document = parse(query);
      return operationCost(schema, document, getOperationAST(document)!, variables);
    };
    const byIds =
      'query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { id } } }';
    assert.equal(cost(byIds, { ids: ['a', 'b', 'c'] }), 1 + 3);
    // Priced as asked (the resolver refuses more than 100 ids when it runs).
    assert.equal(cost(byIds, { ids: Array.from({ length: 500 }, String) }), 1 + 500);
    assert.equal(
      cost('{ virtualInterviewEvents(input: { ids: ["a", "b"] }) { events { id } } }'),
      3,
    );

    const page = `query($first: Int) { findVirtualInterviewEvents(first: $first, input: {}) {
      totalCount pageInfo { hasNextPage } events { title interviewersConnection { interviewers { email } } }
    } }`;
    assert.equal(cost(page), 1 + 1 + 20 * (1 + 1 + 50));
    assert.equal(cost(page, { first: 7 }), 1 + 1 + 7 * (1 + 1 + 50));
    assert.equal(cost('{ findVirtualInterviewEvents(first: 3, input: {}) { events { id } } }'), 4);

    // Unpaged, an interviewee's records are all of them, at most 10 (10 admissions); paged, as
    // many as `first` asks for. A repeated id counts each time, as the answer holds the event in
    // each of its places.
    const records = `query($ids: [ID!]!, $first: Int) { virtualInterviewEvents(input: { ids: $ids }) { events {
      intervieweesConnection { interviewees { interviewRecordsConnection(first: $first) { records { id } } } }
    } } }`;
    assert.equal(cost(records, { ids: ['a'] }), 1 + 1 * (1 + 1 + 1 + 1 + 10));
    assert.equal(cost(records, { ids: ['a'], first: 3 }), 1 + 1 * (1 + 1 + 1 + 1 + 3));
    assert.equal(cost(records, { ids: Array(10).fill('a') }), 1 + 10 * (1 + 1 + 1 + 1 + 10));
    assert.equal(cost('{ __typename __schema { types { fields { name } } } }'), 0);
  });
});

describe('GraphQL limit settings reach the running gateway', () => {
  it('answers past GRAPHQL_MAX_RESPONSE_NODES or _BYTES with one BAD_USER_INPUT error and no data', async () => {
    const database = await createTestDatabase('sqlite');
    const tenant = await insertTenant(database.db, 'answer-size');
    const graphs = [
      await insertEventGraph(database.db, tenant, Date.UTC(2026, 2, 1, 9)),
      await insertEventGraph(database.db, tenant, Date.UTC(2026, 2, 2, 9)),
    ];
    const principal = principalOf(tenant);
    const service = await startTestService(database, {
      clock: new ManualClock(Date.UTC(2026, 2, 1, 8)),
      authenticate: async () => principal,
      env: { GRAPHQL_MAX_RESPONSE_NODES: '12', GRAPHQL_MAX_RESPONSE_BYTES: '3000' },
    });
    const cutOff = (response: { status: number; body: GraphQLBody }, what: RegExp) => {
      assert.equal(response.status, 200);
      assert.equal(response.body.data, null);
      assert.equal(response.body.errors?.length, 1, JSON.stringify(response.body.errors));
      assert.equal(response.body.errors[0]!.extensions.code, 'BAD_USER_INPUT');
      assert.match(response.body.errors[0]!.message, what);
      return response.body.errors[0]!.message;
    };
    try {
      assertSucceeded(
        await post(service, {
          query: '{ findVirtualInterviewEvents(input: {}) { events { id title } } }',
        }),
      );
      // 1 + 2 × (edge, node, connection, 2 edges, 2 nodes, 2 interviewers) = 19 objects.
      const interviewers = `interviewersConnection { edges { node { email } } interviewers { email } }`;
      cutOff(
        await post(service, {
          query: `{ findVirtualInterviewEvents(input: {}) { edges { node { ${interviewers} } } } }`,
        }),
        /^The answer would hold more than 12 objects, the most one answer may hold\. Ask for fewer/,
      );
      // Two events, each with its lobby link 20 times over: some 3,600 bytes.
      const links = Array.from({ length: 20 }, (_, i) => `u${i}: interviewerLobbyUrl`).join(' ');
      cutOff(
        await post(service, {
          query: `{ findVirtualInterviewEvents(input: {}) { events { ${links} } } }`,
        }),
        /^The answer would hold more than 3000 bytes/,
      );
      const id = graphs[0]!.event.id;
      const other = graphs[1]!.event.id;
      const message = cutOff(
        await post(service, {
          query: `mutation { updateVirtualInterviewEvent(input: { setTitle: { id: "${id}", title: "Renamed" } }) {
            event { ${interviewers} intervieweesConnection { edges { node { id } } interviewees { id } } }
          }
          later: updateVirtualInterviewEvent(input: { setTitle: { id: "${other}", title: "Too late" } }) {
            event { id }
          } }`,
        }),
        /more than 12 objects/,
      );
      assert.match(message, /Changes made before the limit was reached stay made/);
      const stored = await database.db('interview_events').where({ id }).first('title');
      assert.equal(stored.title, 'Renamed');
      // A mutation after the limit is not carried out: its answer would never be seen.
      const untouched = await database.db('interview_events').where({ id: other }).first('title');
      assert.notEqual(untouched.title, 'Too late');
    } finally {
      await service.stop();
      await database.dispose();
    }
  });

  it('refuses a query deeper than GRAPHQL_MAX_DEPTH set in the environment', async () => {
    const database = await createTestDatabase('sqlite');
    const tenant = await insertTenant(database.db, 'settings');
    const principal = principalOf(tenant);
    const service = await startTestService(database, {
      clock: new ManualClock(Date.UTC(2026, 2, 1, 9, 10)),
      authenticate: async () => principal,
      env: { GRAPHQL_MAX_DEPTH: '3' },
    });
    try {
      const ask = async (query: string) => {
        const response = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        return (await response.json()) as { errors?: Array<{ message: string }> };
      };
      const shallow = await ask('{ findVirtualInterviewEvents(input: {}) { events { id } } }');
      assert.equal(shallow.errors, undefined);
      const deep = await ask(
        '{ findVirtualInterviewEvents(input: {}) { events { interviewersConnection { totalCount } } } }',
      );
      assert.match(deep.errors?.[0]?.message ?? '', /the limit is 3/);
    } finally {
      await service.stop();
      await database.dispose();
    }
  });
});
