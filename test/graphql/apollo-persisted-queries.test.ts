import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  ApolloClient,
  ApolloLink,
  CombinedGraphQLErrors,
  HttpLink,
  InMemoryCache,
  gql,
  type DocumentNode,
} from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { request } from 'node:http';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import {
  RAISED_RATE_LIMITS,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';
import { TokenRequests } from '../support/token-requests.js';
import { uniqueEmail } from '../support/write-load.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const EVENT = `id title status startTime interviewersConnection { interviewers { email } }`;

/** The five Interview API operations, as a partner's Apollo app would write them. */
const OPERATIONS = {
  create: gql`
    mutation CreateEvent($input: CreateVirtualInterviewEventInput!) {
      createVirtualInterviewEvent(input: $input) { event { ${EVENT} } }
    }
  `,
  update: gql`
    mutation RenameEvent($input: UpdateVirtualInterviewEventInput!) {
      updateVirtualInterviewEvent(input: $input) { event { ${EVENT} } }
    }
  `,
  byIds: gql`
    query EventsByIds($input: VirtualInterviewEventsInput!) {
      virtualInterviewEvents(input: $input) { events { ${EVENT} } }
    }
  `,
  find: gql`
    query FindEvents($input: FindVirtualInterviewEventsInput!, $first: Int) {
      findVirtualInterviewEvents(input: $input, first: $first) { totalCount events { ${EVENT} } }
    }
  `,
  cancel: gql`
    mutation CancelEvent($input: CancelVirtualInterviewEventInput!) {
      cancelVirtualInterviewEvent(input: $input) { event { ${EVENT} } }
    }
  `,
};

interface Event {
  id: string;
  title: string;
  status: string;
}

/** What went over the wire: each request body, parsed. */
type SentBodies = Array<Record<string, unknown>>;

/**
 * An Apollo Client with the persisted query link in front of its HTTP link (SHA-256 from
 * node:crypto), recording every request body it sends.
 */
function apolloClient(url: string, token: string, sent: SentBodies, persisted = true) {
  const http = new HttpLink({
    uri: `${url}/graphql`,
    headers: { authorization: `Bearer ${token}` },
    fetch: async (input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    },
  });
  const link = persisted
    ? ApolloLink.from([new PersistedQueryLink({ sha256 }), http])
    : ApolloLink.from([http]);
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

/** Runs the five operations on a new event; the event as each step left it. */
async function runFiveOperations(client: ApolloClient, label: string) {
  const mutate = async (mutation: DocumentNode, input: object, field: string) => {
    const { data } = await client.mutate<Record<string, { event: Event }>>({
      mutation,
      variables: { input },
    });
    return data![field]!.event;
  };
  const query = async <T>(document: DocumentNode, variables: object) => {
    const { data } = await client.query<T>({ query: document, variables, fetchPolicy: 'no-cache' });
    return data!;
  };
  const created = await mutate(
    OPERATIONS.create,
    {
      title: `${label} first round`,
      startTime: '2031-03-03T09:00:00Z',
      endTime: '2031-03-03T10:00:00Z',
      timezone: 'UTC',
      interviewers: [{ email: uniqueEmail('interviewer') }],
      interviewee: { name: 'Robin Applicant', email: uniqueEmail('interviewee') },
      requestMetadata: { atsName: 'Apollo APQ test' },
    },
    'createVirtualInterviewEvent',
  );
  const renamed = await mutate(
    OPERATIONS.update,
    { setTitle: { id: created.id, title: `${label} renamed` } },
    'updateVirtualInterviewEvent',
  );
  const byIds = await query<{ virtualInterviewEvents: { events: Event[] } }>(OPERATIONS.byIds, {
    input: { ids: [created.id] },
  });
  const found = await query<{ findVirtualInterviewEvents: { events: Event[] } }>(OPERATIONS.find, {
    input: {
      startTime: { after: '2031-03-03T08:59:00Z', before: '2031-03-03T09:01:00Z' },
    },
    first: 100,
  });
  const cancelled = await mutate(
    OPERATIONS.cancel,
    { id: created.id },
    'cancelVirtualInterviewEvent',
  );
  return {
    created,
    renamed,
    byIds: byIds.virtualInterviewEvents.events[0]!,
    found: found.findVirtualInterviewEvents.events.find((event) => event.id === created.id),
    cancelled,
  };
}

function assertRan(run: Awaited<ReturnType<typeof runFiveOperations>>, label: string): void {
  assert.equal(run.created.title, `${label} first round`);
  assert.equal(run.renamed.title, `${label} renamed`);
  assert.equal(run.byIds.title, `${label} renamed`);
  assert.equal(run.found?.id, run.created.id);
  assert.equal(run.cancelled.status, 'CANCELLED');
}

const OPERATION_NAMES = ['CreateEvent', 'RenameEvent', 'EventsByIds', 'FindEvents', 'CancelEvent'];

/**
 * Apollo Client with `@apollo/client/link/persisted-queries` against the production default
 * (the built service, two workers, NODE_ENV=production): after the first registration of each
 * of the five Interview API operations, requests carry hashes only, whichever worker answers;
 * another process of the same database, which runs persisted documents only
 * (GRAPHQL_PERSISTED_ONLY=on), runs them by hash too and refuses an ad-hoc document.
 */
describeEachDialect(
  'Apollo Client with persisted queries, on two workers and another process',
  (database) => {
    let cluster: ServiceProcess | undefined;
    let strict: ServiceProcess | undefined;
    let token: string;

    before(async function () {
      this.timeout(180_000);
      cluster = await startServiceProcess(database(), RAISED_RATE_LIMITS, 'cluster');
      strict = await startServiceProcess(
        database(),
        { ...RAISED_RATE_LIMITS, AUTH_URL: cluster.url, GRAPHQL_PERSISTED_ONLY: 'on' },
        'cluster',
      );
      const tenant = await createOAuthTenant(database().db, systemClock, 'apq');
      const issued = await new TokenRequests(cluster.url, tenant.app).clientCredentials(
        tenant.employer.id,
      );
      assert.equal(issued.status, 200);
      token = issued.body.access_token;
    });
    after(async () => {
      await Promise.all([cluster?.stop(), strict?.stop()]);
      for (const service of [cluster, strict]) {
        assert.deepEqual(service?.crashes() ?? [], [], service?.output());
      }
    });

    it('registers each operation once, then sends hashes only', async function () {
      this.timeout(60_000);
      const first: SentBodies = [];
      assertRan(await runFiveOperations(apolloClient(cluster!.url, token, first), 'One'), 'One');
      // Each operation: its hash alone (PERSISTED_QUERY_NOT_FOUND), then its text with the hash.
      assert.deepEqual(
        first.map((body) => [body.operationName, 'query' in body]),
        OPERATION_NAMES.flatMap((name) => [
          [name, false],
          [name, true],
        ]),
      );
      const stored = await database().db('persisted_documents').select('hash', 'source');
      const sentHashes = first.map(
        (body) => (body.extensions as { persistedQuery: { sha256Hash: string } }).persistedQuery,
      );
      assert.equal(stored.length, 5);
      assert.ok(stored.every((row) => row.source === 'automatic'));
      assert.deepEqual(
        stored.map((row) => row.hash).sort(),
        [...new Set(sentHashes.map((hash) => hash.sha256Hash))].sort(),
      );

      const second: SentBodies = [];
      assertRan(await runFiveOperations(apolloClient(cluster!.url, token, second), 'Two'), 'Two');
      assert.deepEqual(
        second.map((body) => body.operationName),
        OPERATION_NAMES,
      );
      assert.ok(
        second.every((body) => !('query' in body) && JSON.stringify(body).length < 1000),
        'the second run sends no document text',
      );
    });

    it('knows a document in every worker once one of them registered it', async function () {
      this.timeout(60_000);
      const query = `query Everywhere { findVirtualInterviewEvents(input: {}, first: 1) { totalCount } }`;
      const hash = sha256(query);
      // A connection of its own for each request (no agent, no keep-alive): the cluster primary
      // hands connections to the workers in turn, so consecutive requests reach both.
      const send = (body: object) =>
        new Promise<{ data?: unknown; errors?: unknown[] }>((resolve, reject) => {
          const sent = request(
            `${cluster!.url}/graphql`,
            {
              method: 'POST',
              agent: false,
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            },
            (response) => {
              let text = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => (text += chunk));
              response.on('end', () => resolve(JSON.parse(text)));
            },
          );
          sent.on('error', reject);
          sent.end(JSON.stringify(body));
        });
      const persistedQuery = { version: 1, sha256Hash: hash };
      const unknown = await Promise.all(
        [1, 2, 3, 4].map(() => send({ extensions: { persistedQuery } })),
      );
      assert.ok(
        unknown.every((answer) => JSON.stringify(answer).includes('PERSISTED_QUERY_NOT_FOUND')),
      );
      const registered = await send({ query, extensions: { persistedQuery } });
      assert.equal(registered.errors, undefined, JSON.stringify(registered.errors));
      for (let round = 0; round < 6; round += 1) {
        const answer = await send({ extensions: { persistedQuery } });
        assert.equal(
          answer.errors,
          undefined,
          `request ${round}: ${JSON.stringify(answer.errors)}`,
        );
      }
    });

    it('runs the registered operations by hash on another process that allows persisted documents only', async function () {
      this.timeout(60_000);
      const sent: SentBodies = [];
      assertRan(await runFiveOperations(apolloClient(strict!.url, token, sent), 'Three'), 'Three');
      assert.deepEqual(
        sent.map((body) => [body.operationName, 'query' in body]),
        OPERATION_NAMES.map((name) => [name, false]),
      );
    });

    it('refuses an ad-hoc document there with PERSISTED_QUERY_REQUIRED', async function () {
      this.timeout(60_000);
      const adHoc = await postGraphQL(strict!.url, token, {
        query: 'query AdHoc { findVirtualInterviewEvents(input: {}) { totalCount } }',
      });
      assert.equal(adHoc.body.data, undefined);
      assert.equal(adHoc.body.errors?.[0]?.extensions.code, 'PERSISTED_QUERY_REQUIRED');

      // Apollo without the persisted query link sends the text: refused the same way.
      const client = apolloClient(strict!.url, token, [], false);
      await assert.rejects(
        client.query({ query: OPERATIONS.byIds, variables: { input: { ids: ['x'] } } }),
        (error: unknown) =>
          CombinedGraphQLErrors.is(error) &&
          error.errors[0]?.extensions?.code === 'PERSISTED_QUERY_REQUIRED',
      );
      // And the link's registration of a new document is refused too.
      const sent: SentBodies = [];
      const apq = apolloClient(strict!.url, token, sent);
      const unknown = gql`
        query NotRegistered {
          findVirtualInterviewEvents(input: {}, first: 2) {
            totalCount
          }
        }
      `;
      await assert.rejects(
        apq.query({ query: unknown, fetchPolicy: 'no-cache' }),
        (error: unknown) =>
          CombinedGraphQLErrors.is(error) &&
          error.errors[0]?.extensions?.code === 'PERSISTED_QUERY_REQUIRED',
      );
      assert.deepEqual(
        sent.map((body) => 'query' in body),
        [false, true],
      );
    });
  },
  { timeoutMs: 180_000 },
);
