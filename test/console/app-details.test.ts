import assert from 'node:assert/strict';
import type { Database } from '../../src/db/database.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, callApi } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';
import {
  ConsoleClient as Browser,
  formCsrfToken as csrfTokenOf,
  locationOf,
  unescapeHtml,
  type Form,
} from '../support/console-client.js';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'https://partner.example.com/callback';
const ALL_GRANTS = ['authorization_code', 'refresh_token', 'client_credentials'];

let sequence = 0;
function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${sequence}-${Date.now()}@example.com`;
}

function shownSecret(html: string): string | undefined {
  const match = /<code id="client-secret" class="secret">([^<]*)<\/code>/.exec(html);
  return match ? unescapeHtml(match[1]!) : undefined;
}

function shownClientId(html: string): string {
  const match = /<code id="client-id">([^<]*)<\/code>/.exec(html);
  assert.ok(match, `no client id on the page:\n${html}`);
  return unescapeHtml(match[1]!);
}

async function signedInBrowser(baseUrl: string): Promise<Browser> {
  const browser = new Browser(baseUrl);
  await browser.signUp(uniqueEmail('partner'), PASSWORD, 'Pat Partner');
  return browser;
}

/** Registers an app through the console form; its client id and one-time secret. */
async function registerApp(browser: Browser, fields: Form = {}) {
  const response = await browser.submit('/console/apps/new', '/console/apps/new', {
    name: 'Scheduler',
    client_type: 'confidential',
    redirect_uri_1: REDIRECT,
    description: 'Books interviews',
    grant_types: ['', ...ALL_GRANTS],
    ...fields,
  });
  assert.equal(response.status, 303, response.body);
  const credentials = await browser.get(locationOf(response));
  return {
    clientId: shownClientId(credentials.body),
    secret: shownSecret(credentials.body) ?? '',
    base: `/console/apps/${shownClientId(credentials.body)}`,
  };
}

function clientCredentials(baseUrl: string, clientId: string, secret: string, scope?: string) {
  return callApi(baseUrl, 'POST', '/oauth/v2/tokens', {
    form: { grant_type: 'client_credentials', ...(scope && { scope }) },
    headers: basic(clientId, secret),
  });
}

async function appRow(db: Database, clientId: string) {
  return db('apps').where({ client_id: clientId }).first();
}

async function redirectUris(db: Database, clientId: string): Promise<string[]> {
  const app = await appRow(db, clientId);
  const rows: Array<{ uri: string }> = await db('app_redirect_uris')
    .where({ app_id: app.id })
    .orderBy('position');
  return rows.map((row) => row.uri);
}

describeEachDialect('console app details', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '1000' } });
  });
  after(async () => {
    await service?.stop();
  });

  const db = () => database().db;

  it('stores the description and grant types chosen at registration', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId } = await registerApp(browser, {
      description: 'Finds <b>great</b> people',
      grant_types: ['', 'client_credentials'],
    });
    const row = await appRow(db(), clientId);
    assert.equal(row.description, 'Finds <b>great</b> people');
    assert.equal(row.grant_types, 'client_credentials');

    const form = await browser.get('/console/apps/new');
    assert.ok(form.body.includes('<label for="app-description">Description</label>'));
    assert.match(form.body, /<legend>Allowed grant types<\/legend>/);
    assert.match(form.body, /<label for="grant-type-client-credentials">/);

    const apps = Number((await db()('apps').count({ n: '*' }).first())?.n);
    const none = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'No grants',
      client_type: 'confidential',
      redirect_uri_1: REDIRECT,
      grant_types: '',
    });
    assert.equal(none.status, 400);
    assert.match(none.body, /Choose at least one grant type\./);
    assert.equal(Number((await db()('apps').count({ n: '*' }).first())?.n), apps);
  });

  it('renders every tab for the owner with the tab bar, and escapes what the owner typed', async () => {
    const browser = await signedInBrowser(service.url);
    const { base } = await registerApp(browser, {
      name: 'Sched <script>',
      description: 'Books <i>interviews</i>',
    });
    const tabs = [
      'Overview',
      'Credentials',
      'Redirect URLs',
      'Webhooks',
      'Calendar mails',
      'Activity',
    ];
    for (const [path, current] of [
      [base, 'Overview'],
      [`${base}/credentials`, 'Credentials'],
      [`${base}/redirect-urls`, 'Redirect URLs'],
      [`${base}/webhooks`, 'Webhooks'],
      [`${base}/calendar-mails`, 'Calendar mails'],
      [`${base}/activity`, 'Activity'],
    ] as const) {
      const page = await browser.get(path);
      assert.equal(page.status, 200, `${path}: ${page.body}`);
      for (const tab of tabs) assert.ok(page.body.includes(`>${tab}</a>`), `${path} tab ${tab}`);
      assert.ok(page.body.includes(`aria-current="page">${current}</a>`), `${path} current`);
      assert.ok(page.body.includes('Sched &lt;script&gt;'));
      assert.ok(!page.body.includes('<script>'));
    }
    const overview = await browser.get(base);
    assert.ok(overview.body.includes('Books &lt;i&gt;interviews&lt;/i&gt;'));
    assert.match(overview.body, /Confidential \(server-side\)/);
    assert.match(overview.body, /Authorization code, Refresh token, Client credentials/);
    assert.match(overview.body, /Registered<\/dt>\s*<dd>\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it("answers 404 for another user's app on every page and form, and changes nothing", async () => {
    const owner = await signedInBrowser(service.url);
    const { clientId, base } = await registerApp(owner);
    const before = await appRow(db(), clientId);
    const intruder = await signedInBrowser(service.url);
    for (const path of [
      base,
      `${base}/redirect-urls`,
      `${base}/redirect-urls/1/remove`,
      `${base}/activity`,
      `${base}/delete`,
    ]) {
      const page = await intruder.get(path);
      assert.equal(page.status, 404, path);
      assert.match(page.body, /Page not found/);
    }
    // A valid CSRF token of the intruder's own session, on a URL edited to the owner's app.
    const own = await registerApp(intruder);
    const token = csrfTokenOf((await intruder.get(own.base)).body, `${own.base}/overview`);
    const posts: Array<[string, Form]> = [
      [`${base}/overview`, { name: 'Taken', grant_types: ALL_GRANTS }],
      [`${base}/redirect-urls`, { redirect_uri: 'https://evil.example.com/cb' }],
      [`${base}/redirect-urls/1`, { redirect_uri: 'https://evil.example.com/cb' }],
      [`${base}/redirect-urls/1/remove`, { confirm: 'yes', redirect_uri: REDIRECT }],
      [`${base}/delete`, {}],
    ];
    for (const [path, form] of posts) {
      const response = await intruder.post(path, { csrf_token: token, ...form });
      assert.equal(response.status, 404, path);
    }
    assert.deepEqual(await appRow(db(), clientId), before);
    assert.deepEqual(await redirectUris(db(), clientId), [REDIRECT]);
  });

  it('edits the name, description and grant types, refusing an empty grant set', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, base } = await registerApp(browser);
    const saved = await browser.submit(base, `${base}/overview`, {
      name: '  Renamed  ',
      description: '',
      grant_types: ['', 'refresh_token', 'authorization_code'],
    });
    assert.equal(saved.status, 303);
    assert.equal(locationOf(saved), base);
    assert.match((await browser.get(base)).body, /role="status">Changes saved\.</);
    let row = await appRow(db(), clientId);
    assert.equal(row.name, 'Renamed');
    assert.equal(row.description, null);
    assert.equal(row.grant_types, 'authorization_code refresh_token');

    const refused = await browser.submit(base, `${base}/overview`, {
      name: 'Other',
      description: 'kept in the form',
      grant_types: '',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /Choose at least one grant type\./);
    assert.ok(refused.body.includes('kept in the form'));
    row = await appRow(db(), clientId);
    assert.equal(row.name, 'Renamed');
    assert.equal(row.grant_types, 'authorization_code refresh_token');

    const blank = await browser.submit(base, `${base}/overview`, {
      name: '   ',
      grant_types: ALL_GRANTS,
    });
    assert.equal(blank.status, 400);
    assert.match(blank.body, /Name must not be empty\./);
    assert.equal((await appRow(db(), clientId)).name, 'Renamed');
  });

  it('adds, edits and removes redirect URLs under the registration rules', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, base } = await registerApp(browser);
    const page = `${base}/redirect-urls`;
    const shown = await browser.get(page);
    assert.match(shown.body, /must equal one of these URLs exactly, character for character/);

    const added = await browser.submit(page, page, { redirect_uri: 'http://localhost:9000/cb' });
    assert.equal(added.status, 303);
    assert.equal(locationOf(added), page);
    assert.match((await browser.get(page)).body, /role="status">Redirect URL added\.</);
    const edited = await browser.submit(page, `${page}/2`, {
      redirect_uri: 'https://partner.example.com/other',
    });
    assert.equal(edited.status, 303);
    assert.deepEqual(await redirectUris(db(), clientId), [
      REDIRECT,
      'https://partner.example.com/other',
    ]);

    for (const [action, uri, message] of [
      [page, 'http://partner.example.com/cb', /must use https unless the host is localhost/],
      [page, 'https://partner.example.com/cb#top', /must not contain a fragment/],
      [`${page}/1`, 'http://partner.example.com/cb', /must use https unless the host is localhost/],
      [`${page}/1`, 'https://partner.example.com/cb#top', /must not contain a fragment/],
      [page, REDIRECT, /is listed twice/],
    ] as const) {
      const response = await browser.submit(page, action, { redirect_uri: uri });
      assert.equal(response.status, 400, `${action} ${uri}`);
      assert.match(response.body, message);
      assert.ok(response.body.includes(`value="${uri}"`), 'the typed URL is kept');
      assert.match(response.body, /aria-invalid="true"/);
      assert.deepEqual(await redirectUris(db(), clientId), [
        REDIRECT,
        'https://partner.example.com/other',
      ]);
    }

    for (const n of [3, 4, 5]) {
      const response = await browser.submit(page, page, {
        redirect_uri: `https://partner.example.com/${n}`,
      });
      assert.equal(response.status, 303);
    }
    const full = await browser.get(page);
    assert.match(full.body, /has the most redirect URLs allowed \(5\)/);
    const token = csrfTokenOf(full.body, `${page}/1`);
    const sixth = await browser.post(page, {
      csrf_token: token,
      redirect_uri: 'https://partner.example.com/6',
    });
    assert.equal(sixth.status, 400);
    assert.match(sixth.body, /at most 5 redirect URIs/);
    assert.equal((await redirectUris(db(), clientId)).length, 5);

    const remove2 = `${page}/2/remove`;
    assert.ok(full.body.includes(`href="${remove2}"`), 'each URL links to its confirmation');
    const unconfirmed = await browser.post(remove2, { csrf_token: token });
    assert.equal(unconfirmed.status, 303, 'without the confirmation nothing is removed');
    assert.equal(locationOf(unconfirmed), remove2);
    assert.equal((await redirectUris(db(), clientId)).length, 5);
    const confirmation = await browser.get(remove2);
    assert.equal(confirmation.status, 200);
    assert.ok(confirmation.body.includes('<code>https://partner.example.com/other</code>'));
    const removed = await browser.submit(remove2, remove2, {
      confirm: 'yes',
      redirect_uri: 'https://partner.example.com/other',
    });
    assert.equal(removed.status, 303);
    assert.match((await browser.get(page)).body, /role="status">Redirect URL removed\.</);
    assert.deepEqual(await redirectUris(db(), clientId), [
      REDIRECT,
      'https://partner.example.com/3',
      'https://partner.example.com/4',
      'https://partner.example.com/5',
    ]);
    const missing = await browser.post(`${page}/9/remove`, { csrf_token: token, confirm: 'yes' });
    assert.equal(missing.status, 404);
    assert.equal((await browser.get(`${page}/9/remove`)).status, 404);
    // A confirmation opened before the list changed removes nothing once another URL is there.
    const stale = await browser.submit(`${page}/1/remove`, `${page}/1/remove`, {
      confirm: 'yes',
      redirect_uri: 'https://partner.example.com/other',
    });
    assert.equal(stale.status, 400);
    assert.match(
      stale.body,
      /The redirect URLs changed since this page was opened; nothing was removed/,
    );
    assert.equal((await redirectUris(db(), clientId)).length, 4);
  });

  it('accepts a redirect URL with a query string and shows a warning about it', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, base } = await registerApp(browser);
    const page = `${base}/redirect-urls`;
    assert.doesNotMatch((await browser.get(page)).body, /has a query string/);
    const uri = 'https://partner.example.com/cb?tenant=acme';
    assert.equal((await browser.submit(page, page, { redirect_uri: uri })).status, 303);
    assert.deepEqual(await redirectUris(db(), clientId), [REDIRECT, uri]);
    const shown = await browser.get(page);
    assert.ok(shown.body.includes('value="https://partner.example.com/cb?tenant=acme"'));
    assert.match(shown.body, /This URL has a query string\. It is accepted/);
    assert.match(shown.body, /<code>state<\/code> parameter/);
  });

  it('refuses at the token endpoint a grant the app does not allow', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, secret, base } = await registerApp(browser, {
      grant_types: ['', 'authorization_code', 'refresh_token'],
    });
    const refused = await clientCredentials(service.url, clientId, secret);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'unauthorized_client');
    assert.match(refused.body.error_description, /client_credentials/);
    assert.equal(
      await db()('access_tokens')
        .where({ app_id: (await appRow(db(), clientId)).id })
        .first(),
      undefined,
    );

    const allowed = await browser.submit(base, `${base}/overview`, {
      name: 'Scheduler',
      grant_types: ALL_GRANTS,
    });
    assert.equal(allowed.status, 303);
    assert.equal((await clientCredentials(service.url, clientId, secret)).status, 200);
  });

  it('lists token issuance and secret rotation on the Activity tab, never a secret', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, secret, base } = await registerApp(browser);
    const registered = await browser.get(`${base}/activity`);
    assert.match(registered.body, /App registered/);
    assert.doesNotMatch(registered.body, /Nothing has happened with this app yet/);

    const issued = await clientCredentials(service.url, clientId, secret);
    assert.equal(issued.status, 200);
    const rotate = `${base}/credentials/rotate`;
    const rotated = await browser.submit(rotate, rotate, { confirm: 'yes' });
    assert.equal(rotated.status, 303);
    const newSecret = shownSecret((await browser.get(`${base}/credentials`)).body);
    assert.ok(newSecret);
    const added = await browser.submit(`${base}/redirect-urls`, `${base}/redirect-urls`, {
      redirect_uri: 'https://app.example.com/second',
    });
    assert.equal(added.status, 303);

    const activity = await browser.get(`${base}/activity`);
    assert.match(activity.body, /Redirect URL added/);
    assert.match(activity.body, /Redirect URL: https:\/\/app\.example\.com\/second/);
    assert.equal(activity.status, 200);
    const rotatedAt = activity.body.indexOf('Client secret rotated');
    const issuedAt = activity.body.indexOf('Access token issued');
    assert.ok(rotatedAt > 0 && issuedAt > rotatedAt, 'newest first');
    assert.match(activity.body, /Grant: client_credentials/);
    assert.match(activity.body, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    for (const hidden of [secret, newSecret, issued.body.access_token as string]) {
      assert.ok(!activity.body.includes(hidden), 'no secret or token on the page');
    }
  });

  it('deletes an app after confirmation, and its tokens stop working at once', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, secret, base } = await registerApp(browser);
    const { id: appId } = await appRow(db(), clientId);
    const issued = await clientCredentials(service.url, clientId, secret, 'employer_access');
    assert.equal(issued.status, 200);
    const bearer = { authorization: `Bearer ${issued.body.access_token}` };
    assert.equal(
      (await callApi(service.url, 'GET', '/v2/api/appinfo', { headers: bearer })).status,
      200,
    );

    const confirm = await browser.get(`${base}/delete`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /Delete this app\?/);
    assert.match(confirm.body, /<button type="submit" class="primary danger">Delete app<\/button>/);
    assert.ok(await appRow(db(), clientId), 'showing the confirmation deletes nothing');

    const deleted = await browser.submit(`${base}/delete`, `${base}/delete`, {});
    assert.equal(deleted.status, 303);
    assert.equal(locationOf(deleted), '/console');
    assert.match((await browser.get('/console')).body, /role="status">App deleted\./);
    assert.equal(await appRow(db(), clientId), undefined);
    assert.equal(await db()('access_tokens').where({ app_id: appId }).first(), undefined);
    assert.equal(
      (await callApi(service.url, 'GET', '/v2/api/appinfo', { headers: bearer })).status,
      401,
    );
    assert.equal((await clientCredentials(service.url, clientId, secret)).status, 401);
    const audit = await db()('audit_events').where({ app_id: appId, type: 'app.deleted' }).first();
    assert.ok(audit, 'the deletion is audited');
    assert.ok(!String(audit.details).includes(secret));
    assert.equal((await browser.get(base)).status, 404);
    assert.ok(!(await browser.get('/console')).body.includes(clientId));
  });

  it('refuses forms without the CSRF token and writes nothing', async () => {
    const browser = await signedInBrowser(service.url);
    const { clientId, base } = await registerApp(browser);
    const before = await appRow(db(), clientId);
    const posts: Array<[string, Form]> = [
      [`${base}/overview`, { name: 'Forged', grant_types: ALL_GRANTS }],
      [`${base}/redirect-urls`, { redirect_uri: 'https://evil.example.com/cb' }],
      [`${base}/redirect-urls/1`, { redirect_uri: 'https://evil.example.com/cb' }],
      [`${base}/redirect-urls/1/remove`, { confirm: 'yes', redirect_uri: REDIRECT }],
      [`${base}/delete`, {}],
    ];
    for (const [path, form] of posts) {
      for (const csrf of [{}, { csrf_token: 'x'.repeat(43) }] as Form[]) {
        const response = await browser.post(path, { ...form, ...csrf });
        assert.equal(response.status, 403, path);
        assert.match(response.body, /This form has expired/);
      }
    }
    assert.deepEqual(await appRow(db(), clientId), before);
    assert.deepEqual(await redirectUris(db(), clientId), [REDIRECT]);
  });
});
