import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/db/database.js';
import { runConcurrently, tally } from '../support/concurrency.js';
import { ConsoleClient as Browser, formCsrfToken, locationOf } from '../support/console-client.js';
import type { Form } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'https://partner.example.com/callback';
const GRANTS = ['', 'authorization_code', 'refresh_token', 'client_credentials'];
const PUBLISHER_COLUMNS = ['developer_name', 'homepage_url', 'privacy_policy_url', 'logo_url'];

let sequence = 0;
async function signedInBrowser(baseUrl: string): Promise<Browser> {
  sequence += 1;
  const browser = new Browser(baseUrl);
  await browser.signUp(`publisher-${sequence}-${Date.now()}@example.com`, PASSWORD, 'Pat Partner');
  return browser;
}

async function registerApp(browser: Browser): Promise<{ clientId: string; base: string }> {
  const response = await browser.submit('/console/apps/new', '/console/apps/new', {
    name: 'Scheduler',
    client_type: 'confidential',
    redirect_uri_1: REDIRECT,
    grant_types: GRANTS,
  });
  assert.equal(response.status, 303, response.body);
  const clientId = /\/console\/apps\/([0-9a-f]+)\//.exec(locationOf(response))![1]!;
  return { clientId, base: `/console/apps/${clientId}` };
}

/** The Overview form as the page sends it, with `fields` typed in. */
function overviewForm(fields: Form): Form {
  return {
    name: 'Scheduler',
    description: '',
    grant_types: GRANTS,
    developer_name: '',
    homepage_url: '',
    privacy_policy_url: '',
    logo_url: '',
    ...fields,
  };
}

async function appRow(db: Database, clientId: string): Promise<Record<string, unknown>> {
  return db('apps').where({ client_id: clientId }).first();
}

async function detailsAudits(db: Database, clientId: string) {
  const app = await appRow(db, clientId);
  return db('audit_events')
    .where({ app_id: app.id as string, type: 'app.updated' })
    .orderBy('id');
}

describeEachDialect('console: publisher details on the Overview', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const db = () => database().db;

  before(async () => {
    service = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '1000' } });
  });
  after(async () => {
    await service?.stop();
  });

  it('saves, audits by field name, shows and clears them', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, base } = await registerApp(browser);
    const page = await browser.get(base);
    for (const id of ['developer-name', 'homepage-url', 'privacy-policy-url', 'logo-url']) {
      assert.match(page.body, new RegExp(`<label for="${id}">`));
    }
    const saved = await browser.submit(
      base,
      `${base}/overview`,
      overviewForm({
        developer_name: '  Pat & Co  ',
        homepage_url: 'https://pat.example/',
        privacy_policy_url: 'http://localhost:3000/privacy',
        logo_url: 'https://cdn.pat.example/logo.svg',
      }),
    );
    assert.equal(saved.status, 303, saved.body);
    const row = await appRow(db(), clientId);
    assert.deepEqual(
      PUBLISHER_COLUMNS.map((column) => row[column]),
      [
        'Pat & Co',
        'https://pat.example/',
        'http://localhost:3000/privacy',
        'https://cdn.pat.example/logo.svg',
      ],
    );
    const [audit] = await detailsAudits(db(), clientId);
    assert.deepEqual(JSON.parse(audit.details).changed, PUBLISHER_COLUMNS);
    assert.deepEqual(JSON.parse(audit.details).developer_name, { from: null, to: 'Pat & Co' });
    const shown = await browser.get(base);
    assert.ok(shown.body.includes('value="Pat &amp; Co"'));
    const activity = await browser.get(`${base}/activity`);
    assert.match(activity.body, /App details changed/);

    const cleared = await browser.submit(base, `${base}/overview`, overviewForm({}));
    assert.equal(cleared.status, 303);
    const after = await appRow(db(), clientId);
    assert.deepEqual(
      PUBLISHER_COLUMNS.map((column) => after[column]),
      [null, null, null, null],
    );
  });

  it('refuses bad values all at once with a 400 error summary, and writes nothing', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, base } = await registerApp(browser);
    const before = await appRow(db(), clientId);
    const refused = await browser.submit(
      base,
      `${base}/overview`,
      overviewForm({
        name: 'Renamed',
        developer_name: 'Bell\u0007Labs',
        homepage_url: 'http://pat.example/',
        privacy_policy_url: 'javascript:alert(1)',
        logo_url: `https://cdn.example/${'a'.repeat(2048)}`,
      }),
    );
    assert.equal(refused.status, 400);
    assert.match(refused.body, /<h2>There are 4 problems<\/h2>/);
    assert.match(
      refused.body,
      /<a href="#developer-name">Developer name must not contain control characters\.<\/a>/,
    );
    assert.match(refused.body, /<a href="#homepage-url">Homepage URL must start with https:\/\//);
    assert.match(
      refused.body,
      /<a href="#privacy-policy-url">Privacy policy URL must start with https:\/\//,
    );
    assert.match(
      refused.body,
      /<a href="#logo-url">Logo URL must be at most 2048 characters\.<\/a>/,
    );
    assert.match(refused.body, /id="homepage-url"[^>]*aria-invalid="true"/);
    assert.ok(refused.body.includes('value="javascript:alert(1)"'), 'what was typed stays');
    assert.deepEqual(await appRow(db(), clientId), before);
    assert.equal((await detailsAudits(db(), clientId)).length, 0);

    const tooLong = await browser.submit(
      base,
      `${base}/overview`,
      overviewForm({ name: '', developer_name: 'd'.repeat(201) }),
    );
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body, /<h2>There are 2 problems<\/h2>/);
    assert.match(tooLong.body, /<a href="#app-name">Name must not be empty\.<\/a>/);
    assert.match(tooLong.body, /Developer name must be at most 200 characters\./);
    assert.deepEqual(await appRow(db(), clientId), before);
  });
});

describeEachDialect('console: concurrent Overview edits', (database) => {
  it('answers each, keeps one of them whole, takes the next and keeps it after reopening', async () => {
    const service = await startTestService(database(), {
      env: { RATE_LIMIT_SIGN_IN_MAX: '1000' },
    });
    let clientId: string;
    const edits = 10;
    try {
      const browser = await signedInBrowser(service.url);
      const registered = await registerApp(browser);
      clientId = registered.clientId;
      const { base } = registered;
      const csrf = formCsrfToken((await browser.get(base)).body, `${base}/overview`);
      const values = (i: number) => ({
        developer_name: `Developer ${i}`,
        homepage_url: `https://dev${i}.example/`,
        privacy_policy_url: `https://dev${i}.example/privacy`,
        logo_url: `https://dev${i}.example/logo.png`,
      });
      const outcomes = await runConcurrently(edits, edits, (i) =>
        browser.post(`${base}/overview`, { csrf_token: csrf, ...overviewForm(values(i)) }),
      );
      const statuses = outcomes.map((outcome) =>
        outcome.status === 'fulfilled' ? String(outcome.value.status) : String(outcome.reason),
      );
      assert.deepEqual(
        tally(statuses, (status) => status),
        { '303': edits },
      );

      const row = await appRow(database().db, clientId);
      const stored = PUBLISHER_COLUMNS.map((column) => row[column]);
      assert.ok(
        Array.from({ length: edits }, (_, i) => Object.values(values(i))).some(
          (candidate) => JSON.stringify(candidate) === JSON.stringify(stored),
        ),
        `the stored details are one edit's, whole: ${JSON.stringify(stored)}`,
      );
      assert.equal((await detailsAudits(database().db, clientId)).length, edits);

      const next = await browser.post(`${base}/overview`, {
        csrf_token: csrf,
        ...overviewForm(values(99)),
      });
      assert.equal(next.status, 303, next.body);
    } finally {
      await service.stop();
    }
    const reopened = openDatabase(database().config, silentLogger);
    try {
      const row = await appRow(reopened, clientId);
      assert.equal(row.developer_name, 'Developer 99');
      assert.equal(row.logo_url, 'https://dev99.example/logo.png');
      assert.equal((await detailsAudits(reopened, clientId)).length, edits + 1);
    } finally {
      await reopened.destroy();
    }
  });
});
