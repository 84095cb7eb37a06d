/**
 * Fuzzes the GraphQL gateway of the real service on both databases: every Interview API
 * operation with variables of the right and wrong types, control characters, NUL, long and huge
 * strings and every kind of Unicode; arbitrary, deep and aliased documents; broken JSON and wrong
 * content types. Properties: never a 5xx, never INTERNAL_SERVER_ERROR, every answer one that
 * openapi.yaml documents for POST /graphql and every error with a code of DESIGN §4. Afterwards
 * the service is ready and still issues tokens and writes events.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describeEachDeployment } from '../support/deployments.js';
import { assertResponseMatches } from '../support/openapi-contract.js';
import {
  assertStillHealthy,
  healthyEventInput,
  startFuzzService,
  type FuzzService,
} from './support/fuzz-service.js';
import { FuzzTally, fuzz, sendRaw, type Observed } from './support/fuzz-runs.js';
import {
  around,
  aroundString,
  brokenJsonText,
  contentTypes,
  deepJsonText,
  nastyString,
} from './support/nasty-values.js';

/** DESIGN §4: the codes a client may see; INTERNAL_SERVER_ERROR would mean a bug. */
const CLIENT_ERROR_CODES = new Set([
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'PERSISTED_QUERY_NOT_FOUND',
]);

const DOCUMENTS = {
  createVirtualInterviewEvent: `mutation Create($input: CreateVirtualInterviewEventInput!) {
    createVirtualInterviewEvent(input: $input) { event { id title status startTime endTime timezone
      languageCode countryCode mediaType interviewerLobbyUrl
      interviewersConnection { totalCount interviewers { email name } }
      intervieweesConnection { interviewees { name email status job { __typename
        ... on EmployerJob { id } ... on VirtualInterviewJobInfo { title location } } } } } } }`,
  updateVirtualInterviewEvent: `mutation Update($input: UpdateVirtualInterviewEventInput!) {
    updateVirtualInterviewEvent(input: $input) { event { id title status startTime endTime timezone
      interviewersConnection { totalCount } intervieweesConnection { totalCount } } } }`,
  cancelVirtualInterviewEvent: `mutation Cancel($input: CancelVirtualInterviewEventInput!) {
    cancelVirtualInterviewEvent(input: $input) { event { id status } } }`,
  virtualInterviewEvents: `query Events($input: VirtualInterviewEventsInput!) {
    virtualInterviewEvents(input: $input) { events { id title status } } }`,
  findVirtualInterviewEvents: `query Find($first: Int, $after: String, $input: FindVirtualInterviewEventsInput!) {
    findVirtualInterviewEvents(first: $first, after: $after, input: $input) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id startTime } } } }`,
};

/** The name each operation has in its document. */
const OPERATION_NAMES: Record<keyof typeof DOCUMENTS, string> = {
  createVirtualInterviewEvent: 'Create',
  updateVirtualInterviewEvent: 'Update',
  cancelVirtualInterviewEvent: 'Cancel',
  virtualInterviewEvents: 'Events',
  findVirtualInterviewEvents: 'Find',
};

/** Text that is valid but not plain ASCII. */
const GOOD_TEXT = ['Onsite', '面接 😀', "O'Brien – “final” round", 'Ünïcödé\u00a0name'];

/** One generated request to /graphql. */
interface GraphQLCase {
  body: unknown;
  /** Sent instead of the JSON of `body` when set. */
  rawBody?: string;
  contentType: string | undefined;
  accept: string | undefined;
  bearer: 'employer' | 'app' | 'user' | 'junk' | 'none';
}

describeEachDeployment('fuzz: GraphQL gateway', (database, deployment) => {
  let service: FuzzService;
  let tally: FuzzTally;
  /** Events of the fuzz tenant, so that updates, cancels and reads find something. */
  const eventIds: string[] = [];
  let cursor = '';

  before(async () => {
    service = await startFuzzService(database(), deployment);
    tally = new FuzzTally(`GraphQL [${database().dialect}, ${deployment}]`);
    for (let i = 0; i < 3; i++) {
      const created = await post({
        query: DOCUMENTS.createVirtualInterviewEvent,
        variables: { input: healthyEventInput() },
      });
      eventIds.push((created.body as any).data.createVirtualInterviewEvent.event.id);
    }
    const page = await post({
      query: DOCUMENTS.findVirtualInterviewEvents,
      variables: { first: 1, input: {} },
    });
    cursor = (page.body as any).data.findVirtualInterviewEvents.pageInfo.endCursor;
  });
  after(async () => {
    if (tally) console.log(tally.report());
    await service?.stop();
  });

  function post(body: unknown, overrides: Partial<GraphQLCase> = {}): Promise<Observed> {
    return send({
      body,
      contentType: 'application/json',
      accept: undefined,
      bearer: 'employer',
      ...overrides,
    });
  }

  function send(request: GraphQLCase): Promise<Observed> {
    const tokens = {
      employer: service.employerToken,
      app: service.appToken,
      user: service.userToken,
      junk: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln',
      none: undefined,
    };
    const token = tokens[request.bearer];
    return sendRaw(`${service.url}/graphql`, {
      method: 'POST',
      headers: {
        authorization: token && `Bearer ${token}`,
        'content-type': request.contentType,
        accept: request.accept,
      },
      body: request.rawBody ?? JSON.stringify(request.body),
    });
  }

  function verify(observed: Observed): void {
    assert.ok(
      observed.status < 500,
      `answered ${observed.status}: ${JSON.stringify(observed.body)}`,
    );
    assertResponseMatches('POST', '/graphql', observed);
    const errors = (observed.body as { errors?: Array<{ extensions?: { code?: string } }> }).errors;
    for (const error of errors ?? []) {
      const code = error.extensions?.code;
      assert.ok(
        code !== undefined && CLIENT_ERROR_CODES.has(code),
        `error without a client code: ${JSON.stringify(error)}`,
      );
    }
  }

  /** Mostly a well-behaved envelope around `body`, sometimes a wrong one. */
  const envelope = (body: fc.Arbitrary<unknown>): fc.Arbitrary<GraphQLCase> =>
    fc.record({
      body,
      contentType: contentTypes('application/json'),
      accept: fc.constantFrom(
        undefined,
        undefined,
        'application/json',
        'application/graphql-response+json',
        'application/graphql-response+json, application/json;q=0.9',
        '*/*',
      ),
      bearer: fc.constantFrom(
        'employer',
        'employer',
        'employer',
        'employer',
        'app',
        'user',
        'junk',
        'none',
      ),
    }) as fc.Arbitrary<GraphQLCase>;

  /**
   * Requests for one operation: mostly fuzzed variables in a fuzzed envelope, a quarter
   * well-formed ones (when given) with the employer token, so that writes and reads run too.
   */
  const operation = (
    name: keyof typeof DOCUMENTS,
    fuzzed: fc.Arbitrary<unknown>,
    wellFormed?: fc.Arbitrary<unknown>,
  ): fc.Arbitrary<GraphQLCase> => {
    const operationName = OPERATION_NAMES[name];
    const fuzzedCase = envelope(
      fc.record({
        query: fc.constant(DOCUMENTS[name]),
        variables: fuzzed,
        operationName: fc.constantFrom(
          ...[undefined, undefined, null, operationName, operationName, 'Other'],
        ),
      }),
    );
    if (!wellFormed) return fuzzedCase;
    const wellFormedCase = wellFormed.map((variables): GraphQLCase => ({
      body: { query: DOCUMENTS[name], variables, operationName },
      contentType: 'application/json',
      accept: undefined,
      bearer: 'employer',
    }));
    return fc.oneof({ weight: 3, arbitrary: fuzzedCase }, { weight: 1, arbitrary: wellFormedCase });
  };

  const optional = <T>(arbitrary: fc.Arbitrary<T>) =>
    fc.option(around(arbitrary), { nil: undefined });
  const dateTime = aroundString(
    '2027-01-04T09:00:00-05:00',
    '2027-01-04T10:00:00-05:00',
    '2027-01-04T14:00:00Z',
    '2027-01-05T09:00:00+05:30',
    '2027-01-04T09:00:00',
    '2027-02-30T09:00:00Z',
  );
  const timeZone = aroundString(
    'America/New_York',
    'europe/paris',
    'UTC',
    'Asia/Calcutta',
    '+05:00',
  );
  const email = aroundString('lee@example.com', 'Sam@Example.com', 'not-an-email');
  const interviewers = around(fc.array(fc.record({ email: around(email) }), { maxLength: 60 }));
  const interviewee = fc.record({
    name: around(aroundString('Casey Candidate')),
    email: around(email),
    job: optional(
      fc.record({
        employerJobId: optional(aroundString('job-42')),
        title: optional(aroundString('Backend engineer')),
        location: optional(aroundString('Remote')),
      }),
    ),
  });
  const eventId = () => around(aroundString(...eventIds, '00000000-0000-0000-0000-000000000000'));

  it('createVirtualInterviewEvent: never 5xx or INTERNAL_SERVER_ERROR', async function () {
    this.timeout(0);
    const input = fc.record({
      title: around(aroundString('Onsite', 'Phone screen')),
      startTime: around(dateTime),
      endTime: around(dateTime),
      timezone: around(timeZone),
      interviewers,
      interviewee: optional(interviewee),
      requestMetadata: around(
        fc.record({
          atsName: around(aroundString('Fuzz ATS')),
          employerName: optional(aroundString('Acme')),
        }),
      ),
      languageCode: optional(aroundString('en', 'EN', 'de', 'xx')),
      countryCode: optional(aroundString('US', 'us', 'DE', 'ZZ')),
      mediaType: optional(aroundString('VIDEO', 'PHONE', 'CARRIER_PIGEON')),
    });
    const wellFormedInput = fc.record(
      {
        title: fc.constantFrom(...GOOD_TEXT),
        startTime: fc.constant('2027-01-04T09:00:00-05:00'),
        endTime: fc.constantFrom('2027-01-04T10:00:00-05:00', '2027-01-04T15:00:00Z'),
        timezone: fc.constantFrom('America/New_York', 'Asia/Kolkata'),
        interviewers: fc.array(
          fc.record({ email: fc.constantFrom('lee@example.com', 'sam@example.com') }),
          { maxLength: 3 },
        ),
        interviewee: fc.record({
          name: fc.constantFrom(...GOOD_TEXT),
          email: fc.constant('casey@example.com'),
        }),
        requestMetadata: fc.record({ atsName: fc.constantFrom(...GOOD_TEXT) }),
        languageCode: fc.constant('en'),
      },
      {
        requiredKeys: [
          'title',
          'startTime',
          'endTime',
          'timezone',
          'interviewers',
          'requestMetadata',
        ],
      },
    );
    await fuzz(
      tally,
      'createVirtualInterviewEvent',
      operation(
        'createVirtualInterviewEvent',
        around(fc.record({ input: around(input) })),
        fc.record({ input: wellFormedInput }),
      ),
      send,
      verify,
    );
  });

  it('updateVirtualInterviewEvent: never 5xx or INTERNAL_SERVER_ERROR', async function () {
    this.timeout(0);
    const input = fc.record(
      {
        reschedule: around(
          fc.record({
            id: eventId(),
            startTime: around(dateTime),
            endTime: around(dateTime),
            timezone: optional(timeZone),
          }),
        ),
        addInterviewers: around(fc.record({ id: eventId(), interviewers })),
        addInterviewee: around(fc.record({ id: eventId(), interviewee: around(interviewee) })),
        setTitle: around(fc.record({ id: eventId(), title: around(aroundString('Renamed')) })),
        setTimezone: around(fc.record({ id: eventId(), timezone: around(timeZone) })),
      },
      { requiredKeys: [] },
    );
    const id = fc.constantFrom(...eventIds);
    const wellFormedInput = fc.oneof(
      fc.record({ setTitle: fc.record({ id, title: fc.constantFrom(...GOOD_TEXT) }) }),
      fc.record({
        setTimezone: fc.record({ id, timezone: fc.constantFrom('Europe/Paris', 'UTC') }),
      }),
      fc.record({
        addInterviewers: fc.record({
          id,
          interviewers: fc.constant([{ email: 'kim@example.com' }]),
        }),
      }),
      fc.record({
        reschedule: fc.record({
          id,
          startTime: fc.constant('2027-01-05T09:00:00+01:00'),
          endTime: fc.constant('2027-01-05T10:00:00+01:00'),
        }),
      }),
    );
    await fuzz(
      tally,
      'updateVirtualInterviewEvent',
      operation(
        'updateVirtualInterviewEvent',
        around(fc.record({ input: around(input) })),
        fc.record({ input: wellFormedInput }),
      ),
      send,
      verify,
    );
  });

  it('cancelVirtualInterviewEvent: never 5xx or INTERNAL_SERVER_ERROR', async function () {
    this.timeout(0);
    await fuzz(
      tally,
      'cancelVirtualInterviewEvent',
      operation(
        'cancelVirtualInterviewEvent',
        around(fc.record({ input: around(fc.record({ id: eventId() })) })),
      ),
      send,
      verify,
    );
  });

  it('virtualInterviewEvents: never 5xx or INTERNAL_SERVER_ERROR', async function () {
    this.timeout(0);
    const ids = around(fc.array(eventId(), { maxLength: 120 }));
    await fuzz(
      tally,
      'virtualInterviewEvents',
      operation('virtualInterviewEvents', around(fc.record({ input: around(fc.record({ ids })) }))),
      send,
      verify,
    );
  });

  it('findVirtualInterviewEvents: never 5xx or INTERNAL_SERVER_ERROR', async function () {
    this.timeout(0);
    const range = around(
      fc.record({ after: optional(dateTime), before: optional(dateTime) }, { requiredKeys: [] }),
    );
    const sort = around(
      fc.array(
        fc.record({
          field: around(aroundString('START_TIME', 'END_TIME', 'TITLE')),
          order: optional(aroundString('ASC', 'DESC', 'SIDEWAYS')),
        }),
        { maxLength: 4 },
      ),
    );
    const variables = fc.record(
      {
        first: around(fc.integer({ min: -5, max: 150 })),
        after: around(aroundString(cursor, `${cursor}x`, '')),
        input: around(fc.record({ startTime: range, endTime: range, sort }, { requiredKeys: [] })),
      },
      { requiredKeys: ['input'] },
    );
    await fuzz(
      tally,
      'findVirtualInterviewEvents',
      operation('findVirtualInterviewEvents', around(variables)),
      send,
      verify,
    );
  });

  it('arbitrary, deep and aliased documents and broken envelopes: never 5xx', async function () {
    this.timeout(0);
    const depth = fc.integer({ min: 1, max: 3000 });
    const documents = fc.oneof(
      nastyString,
      fc.constantFrom(
        'subscription { events { id } }',
        'subscription S { __typename }',
        '{ __typename }',
        '{ __schema { types { name fields { name } } } }',
        'fragment A on Query { ...B } fragment B on Query { ...A } { ...A }',
        'query A { __typename } query B { __typename }',
        'mutation { createVirtualInterviewEvent(input: {}) { event { id } } }',
        '{ virtualInterviewEvents(input: { ids: ["\\u0000"] }) { events { id } } }',
        '{ findVirtualInterviewEvents(first: 99999999999, input: {}) { totalCount } }',
        '{ findVirtualInterviewEvents(input: {}) { events { title } } }',
        'query ($i: ID!) { virtualInterviewEvents(input: { ids: [$i] }) { events { id } } }',
        '{',
        '}}}}',
        '# only a comment',
      ),
      depth.map((n) => `${'{ a '.repeat(n)}${'}'.repeat(n)}`),
      depth.map(
        (n) =>
          `query { findVirtualInterviewEvents(input: { sort: ${'['.repeat(n)}${']'.repeat(n)} }) { totalCount } }`,
      ),
      fc
        .integer({ min: 1, max: 200 })
        .map(
          (n) =>
            `{ ${Array.from({ length: n }, (_, i) => `a${i}: findVirtualInterviewEvents(first: 100, input: {}) { totalCount }`).join(' ')} }`,
        ),
      fc
        .integer({ min: 1, max: 20 })
        .map(
          (n) =>
            `{ findVirtualInterviewEvents(first: 100, input: {}) { events ${'{ intervieweesConnection { interviewees { interviewRecordsConnection { records { interviewOutcomesConnection { outcomes { interviewer { id } } } } } } } }'.repeat(1).slice(0, 40 * n)} } }`,
        ),
    );
    const body = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record(
          {
            query: documents,
            variables: around(
              fc.dictionary(fc.string({ maxLength: 5 }), around(nastyString), { maxKeys: 3 }),
            ),
            operationName: around(aroundString('A', 'B', 'S')),
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 2, arbitrary: around(fc.record({ query: around(documents) })) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    );
    const raw = fc.oneof(
      brokenJsonText,
      deepJsonText,
      fc.constant(undefined),
      fc.constant(undefined),
    );
    await fuzz(
      tally,
      'documents and envelopes',
      fc.tuple(envelope(body), raw).map(([request, rawBody]) => ({ ...request, rawBody })),
      send,
      verify,
    );
  });

  it('persisted documents: hashes, documentIds and registrations, never 5xx', async function () {
    this.timeout(0);
    const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const known = DOCUMENTS.virtualInterviewEvents;
    await post({
      query: known,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(known) } },
    });
    const texts = [known, DOCUMENTS.findVirtualInterviewEvents, '{ __typename }', '{ nope }', '{'];
    const hash = aroundString(
      ...texts.map(sha256),
      sha256(known).toUpperCase(),
      sha256('never registered'),
      'a'.repeat(64),
      'a'.repeat(65),
    );
    const persistedQuery = around(
      fc.record(
        { version: around(fc.constantFrom(1, 2, 0, '1')), sha256Hash: around(hash) },
        { requiredKeys: [] },
      ),
    );
    const body = fc.record(
      {
        query: around(aroundString(...texts)),
        documentId: around(
          fc.oneof(
            hash,
            hash.map((value) => `sha256:${value}`),
          ),
        ),
        extensions: around(fc.record({ persistedQuery }, { requiredKeys: [] })),
        variables: around(fc.constant({ input: { ids: [eventIds[0]] } })),
      },
      { requiredKeys: [] },
    );
    // Well-formed ones too, so that lookups, registrations and runs by hash happen.
    const wellFormed = fc.constantFrom(...texts).chain((text) => {
      const apq = { persistedQuery: { version: 1, sha256Hash: sha256(text) } };
      const variables = { input: { ids: [eventIds[0]] } };
      return fc.constantFrom(
        { extensions: apq, variables },
        { query: text, extensions: apq, variables },
        { documentId: `sha256:${sha256(text)}`, variables },
      );
    });
    const bodies = fc.oneof({ weight: 2, arbitrary: body }, { weight: 1, arbitrary: wellFormed });
    await fuzz(tally, 'persisted documents', envelope(bodies), send, verify);
  });

  it('leaves the service ready, issuing tokens and writing events', async () => {
    await assertStillHealthy(service);
  });
});
