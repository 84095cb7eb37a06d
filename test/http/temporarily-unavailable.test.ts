import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import { ConsoleClient, formCsrfToken } from '../support/console-client.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { employerAppPrincipal } from '../support/interview-fixtures.js';
import { eventInput } from '../support/interview-requests.js';
import { callApi, basic, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { id } } }`;

/**
 * Issue 18, item 1: when the database stays busy past the retries, each interface answers 503
 * with Retry-After in its own format (never 500): the OAuth endpoints RFC 6749's
 * `temporarily_unavailable`, GraphQL `TEMPORARILY_UNAVAILABLE`, the pages a page. The database is
 * made busy for real: on SQLite another connection holds the write lock past the busy timeout,
 * on PostgreSQL a trigger refuses the writes with 40P01 (deadlock_detected). Retries are 0 here,
 * so that the answer comes after one refusal.
 */
describeEachDialect('a database too busy for now, through every interface', (database) => {
  let tenant: OAuthTenant;
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    tenant = await createOAuthTenant(database().db, systemClock, 'busy');
    const principal = employerAppPrincipal({
      userId: tenant.user.id,
      employerId: tenant.employer.id,
      appId: tenant.app.id,
    });
    const noRetries: TestDatabase = {
      ...database(),
      config: { ...database().config, retries: 0 },
    };
    service = await startTestService(noRetries, { authenticate: async () => principal });
  });

  after(async () => {
    await service?.stop();
  });

  it('answers 503 with Retry-After, then serves again once the database is free', async function () {
    this.timeout(30_000);
    const browser = new ConsoleClient(service.url);
    const signInPage = await browser.get('/console/sign-in');
    const csrf = formCsrfToken(signInPage.body, '/console/sign-in');
    const credentials = basic(tenant.app.client_id, tenant.app.secret);

    const requests = () =>
      Promise.all([
        callApi(service.url, 'POST', '/oauth/v2/tokens', {
          form: { grant_type: 'client_credentials' },
          headers: credentials,
        }),
        postGraphQL(service.url, 'any', {
          query: CREATE,
          variables: { input: eventInput({ interviewers: ['lee@example.com'] }) },
        }),
        browser.post('/console/sign-in', {
          csrf_token: csrf,
          email: tenant.user.email,
          password: 'not the password',
        }),
      ]);
    const [token, graphql, page] = await whileBusy(database(), requests);

    assert.equal(token.status, 503, JSON.stringify(token.body));
    assert.equal(token.body.error, 'temporarily_unavailable');
    assert.equal(token.headers.get('retry-after'), '1');
    assert.equal(token.headers.get('cache-control'), 'no-store');

    assert.equal(graphql.status, 503, JSON.stringify(graphql.body));
    assert.deepEqual(
      graphql.body.errors?.map((error) => error.extensions.code),
      ['TEMPORARILY_UNAVAILABLE'],
    );
    assert.equal(graphql.headers.get('retry-after'), '1');

    assert.equal(page.status, 503, page.body);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.body, /The service is busy/);
    assert.equal(page.headers.get('retry-after'), '1');

    const [tokenAfter, graphqlAfter] = await requests();
    assert.equal(tokenAfter.status, 200);
    assert.equal(graphqlAfter.status, 200);
    assert.equal(graphqlAfter.body.errors, undefined);
  });
});

/** Runs `work` while the database refuses writes for a reason that passes (see above). */
async function whileBusy<T>(database: TestDatabase, work: () => Promise<T>): Promise<T> {
  const { db, dialect } = database;
  if (dialect === 'postgres') {
    await refuseWrites(db, ['rate_limit_windows', 'interview_events']);
    try {
      return await work();
    } finally {
      await allowWrites(db, ['rate_limit_windows', 'interview_events']);
    }
  }
  // SQLite's write lock, held by this handle (another writer connection than the service's)
  // for longer than the busy timeout (5 s) the service waits.
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  let done = () => {};
  const isDone = new Promise<void>((resolve) => (done = resolve));
  const holder = db.transaction(async (tx) => {
    await tx('rate_limit_windows').where({ key: 'nothing' }).delete();
    locked();
    await isDone;
  });
  await isLocked;
  try {
    return await work();
  } finally {
    done();
    await holder;
  }
}

async function refuseWrites(db: Database, tables: string[]): Promise<void> {
  await db.raw(`create function refuse_as_deadlocked() returns trigger language plpgsql as $$
    begin raise exception 'forced by the test' using errcode = 'deadlock_detected'; end $$`);
  for (const table of tables) {
    await db.raw(
      `create trigger refuse_as_deadlocked before insert or update on ?? ` +
        `for each row execute function refuse_as_deadlocked()`,
      [table],
    );
  }
}

async function allowWrites(db: Database, tables: string[]): Promise<void> {
  for (const table of tables) await db.raw('drop trigger refuse_as_deadlocked on ??', [table]);
  await db.raw('drop function refuse_as_deadlocked()');
}
