import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { EXAMPLES } from '../../client/explorer/examples.js';
import { ManualClock } from '../../src/clock.js';
import { ConsoleClient, formCsrfToken, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';
const EXPLORER = '/console/explorer';

function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

async function registerApp(client: ConsoleClient, name: string): Promise<string> {
  const created = await client.submit('/console/apps/new', '/console/apps/new', {
    name,
    client_type: 'confidential',
    redirect_uri_1: 'https://app.example.com/callback',
    grant_types: ['authorization_code', 'client_credentials', 'refresh_token'],
  });
  assert.equal(created.status, 303, created.body);
  const clientId = /^\/console\/apps\/([0-9a-f]{32})\//.exec(created.headers.get('location') ?? '');
  assert.ok(clientId, created.headers.get('location') ?? created.body);
  return clientId[1]!;
}

async function createEmployer(client: ConsoleClient, name: string): Promise<string> {
  const created = await client.submit('/console/employers', '/console/employers', { name });
  assert.equal(created.status, 303, created.body);
  return (created.headers.get('location') ?? '').split('/').pop()!;
}

function shownToken(html: string): string | undefined {
  const token = /data-token="([^"]*)"/.exec(html);
  return token ? unescapeHtml(token[1]!) : undefined;
}

describeEachDialect('console API explorer', (database) => {
  const clock = new ManualClock();
  let service: Awaited<ReturnType<typeof startTestService>>;
  let ada: ConsoleClient;
  let bo: ConsoleClient;
  const ids = { adaApp: '', adaEmployer: '', boApp: '', boEmployer: '' };

  async function auditRows() {
    return database().db('audit_events').where({ type: 'explorer_token.issued' }).orderBy('id');
  }

  before(async () => {
    service = await startTestService(database(), {
      clock,
      env: { RATE_LIMIT_SIGN_IN_MAX: '1000' },
    });
    ada = new ConsoleClient(service.url);
    bo = new ConsoleClient(service.url);
    await ada.signUp(uniqueEmail('ada'), PASSWORD);
    await bo.signUp(uniqueEmail('bo'), PASSWORD);
  });
  after(async () => {
    await service?.stop();
  });

  it('sends a visitor who is not signed in to the sign-in page, and issues nothing', async () => {
    const visitor = new ConsoleClient(service.url);
    for (const response of [
      await visitor.get(EXPLORER),
      await visitor.post(EXPLORER, { client_id: 'x', employer: 'y', csrf_token: 'z' }),
    ]) {
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), '/console/sign-in');
    }
    assert.deepEqual(await auditRows(), []);
  });

  it('says what a partner without an app or an employer must create first', async () => {
    const page = await ada.get(EXPLORER);
    assert.equal(page.status, 200);
    assert.match(page.body, /The explorer needs an app and an employer/);
    assert.match(page.body, /<a href="\/console\/apps\/new">Register an app<\/a>/);
    assert.match(page.body, /<a href="\/console\/employers">create an employer<\/a>/);
    assert.match(page.body, /<a href="\/console\/explorer">API explorer<\/a>/, 'in the nav');
    assert.match(page.body, /<a href="\/docs">API reference<\/a>/, 'in the nav');
    assert.match(page.body, /<a href="\/docs\/graphql">GraphQL API reference<\/a>/);
  });

  it('offers only the partner’s own apps and employers', async () => {
    ids.adaApp = await registerApp(ada, 'Ada Scheduler');
    ids.adaEmployer = await createEmployer(ada, 'Ada Hiring');
    ids.boApp = await registerApp(bo, 'Bo Scheduler');
    ids.boEmployer = await createEmployer(bo, 'Bo Hiring');

    const page = await ada.get(EXPLORER);
    assert.equal(page.status, 200);
    assert.ok(page.body.includes(`<option value="${ids.adaApp}">Ada Scheduler</option>`));
    assert.ok(page.body.includes(`<option value="${ids.adaEmployer}">Ada Hiring</option>`));
    for (const foreign of [ids.boApp, ids.boEmployer, 'Bo Scheduler', 'Bo Hiring']) {
      assert.ok(!page.body.includes(foreign), `${foreign} is not offered`);
    }
    assert.equal(shownToken(page.body), undefined, 'no token before the form is sent');
  });

  it('issues a 15-minute employer token for the chosen app that works at /graphql, audited without the token', async () => {
    const opened = await ada.submit(EXPLORER, EXPLORER, {
      client_id: ids.adaApp,
      employer: ids.adaEmployer,
    });
    assert.equal(opened.status, 200, opened.body);
    assert.match(opened.headers.get('cache-control') ?? '', /no-store/);
    const token = shownToken(opened.body);
    assert.ok(token, opened.body);
    assert.match(opened.body, /<script src="\/assets\/built\/explorer\.js"><\/script>/);
    assert.match(opened.body, /data-endpoint="\/graphql"/);
    // GraphiQL links the reference where it shows its logo.
    assert.match(opened.body, /data-reference="\/docs\/graphql"/);

    const claims = decodeJwt(token);
    assert.equal(claims.exp! - claims.iat!, 15 * 60);
    assert.equal(claims.sub, `app:${ids.adaApp}`);
    assert.equal(claims.emp, ids.adaEmployer);
    assert.equal(claims.scope, 'employer_access');

    const [create] = EXAMPLES;
    const created = await postGraphQL(service.url, token, {
      query: create!.query,
      variables: JSON.parse(create!.variables) as object,
    });
    assert.equal(created.status, 200);
    assert.equal(created.body.errors, undefined, JSON.stringify(created.body.errors));
    const eventId: string = created.body.data.createVirtualInterviewEvent.event.id;
    const stored = await database().db('interview_events').where({ id: eventId }).first();
    assert.equal(stored.employer_id, ids.adaEmployer, 'created for the chosen employer');

    const [row, ...others] = await auditRows();
    assert.equal(others.length, 0);
    assert.ok(row);
    const app = await database().db('apps').where({ client_id: ids.adaApp }).first();
    assert.equal(row.app_id, app.id);
    assert.equal(row.employer_id, ids.adaEmployer);
    assert.equal(row.actor_user_id, app.owner_user_id);
    const [, , signature] = token.split('.');
    const recorded = JSON.stringify(row);
    assert.ok(!recorded.includes(signature!), 'the audit row holds no token');
    assert.ok(!recorded.includes(token));

    clock.advance(15 * 60 * 1000 + 1000);
    const expired = await postGraphQL(service.url, token, { query: '{ __typename }' });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.errors?.[0]?.extensions.code, 'UNAUTHENTICATED');
  });

  it("refuses another partner's app and an employer the partner does not belong to", async () => {
    const before = (await auditRows()).length;
    const attempts = [
      { client_id: ids.boApp, employer: ids.adaEmployer, problem: /Choose one of your apps\./ },
      {
        client_id: ids.adaApp,
        employer: ids.boEmployer,
        problem: /Choose one of the employers you belong to\./,
      },
      { client_id: 'f'.repeat(32), employer: ids.adaEmployer, problem: /Choose one of your apps/ },
      {
        client_id: ids.adaApp,
        employer: 'not-an-id\u0000',
        problem: /Choose one of the employers/,
      },
    ];
    for (const { problem, ...form } of attempts) {
      const refused = await ada.submit(EXPLORER, EXPLORER, form);
      assert.equal(refused.status, 400, refused.body);
      assert.match(refused.body, problem);
      assert.equal(shownToken(refused.body), undefined);
    }
    const fromBo = await bo.submit(EXPLORER, EXPLORER, {
      client_id: ids.adaApp,
      employer: ids.boEmployer,
    });
    assert.equal(fromBo.status, 400);
    assert.equal(shownToken(fromBo.body), undefined);
    assert.equal((await auditRows()).length, before, 'nothing issued');
  });

  it('refuses a form without its CSRF token', async () => {
    const token = formCsrfToken((await bo.get(EXPLORER)).body, EXPLORER);
    const foreign = await ada.post(EXPLORER, {
      csrf_token: token,
      client_id: ids.adaApp,
      employer: ids.adaEmployer,
    });
    assert.equal(foreign.status, 403);
    assert.equal(shownToken(foreign.body), undefined);
  });
});
