import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import { AccountService } from '../../src/accounts/account-service.js';
import { AccountStore } from '../../src/accounts/account-store.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, callApi } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';
import {
  ConsoleClient as CookieClient,
  formCsrfToken as csrfTokenOf,
  locationOf,
  unescapeHtml,
  type Page as Observed,
} from '../support/console-client.js';

const PASSWORD = 'correct horse battery staple';
const REDIRECT_A = 'https://partner.example.com/callback';
const REDIRECT_B = 'http://localhost:8080/callback';

let sequence = 0;
function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${sequence}-${Date.now()}@example.com`;
}

async function countRows(db: Database, table: string): Promise<number> {
  const row = await db(table).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The secret shown on a credentials page, or undefined when the page shows it masked. */
function shownSecret(html: string): string | undefined {
  const match = /<code id="client-secret" class="secret">([^<]*)<\/code>/.exec(html);
  return match ? unescapeHtml(match[1]!) : undefined;
}

function shownClientId(html: string): string {
  const match = /<code id="client-id">([^<]*)<\/code>/.exec(html);
  assert.ok(match, `no client id on the page:\n${html}`);
  return unescapeHtml(match[1]!);
}

function clientCredentials(baseUrl: string, clientId: string, secret: string) {
  return callApi(baseUrl, 'POST', '/oauth/v2/tokens', {
    form: { grant_type: 'client_credentials' },
    headers: basic(clientId, secret),
  });
}

/** Submits the sign-up form; when it is accepted, signs in as that account (sign-up does not). */
async function signUp(
  client: CookieClient,
  fields: Partial<Record<'email' | 'password' | 'name', string>> = {},
): Promise<Observed> {
  const form = {
    email: uniqueEmail('partner'),
    password: PASSWORD,
    name: 'Pat Partner',
    ...fields,
  };
  const answer = await client.submit('/console/sign-up', '/console/sign-up', form);
  if (answer.status === 303) await client.signIn(form.email, form.password);
  return answer;
}

async function registerApp(
  client: CookieClient,
  fields: Record<string, string>,
): Promise<Observed> {
  return client.submit('/console/apps/new', '/console/apps/new', {
    name: 'Scheduler',
    client_type: 'confidential',
    ...fields,
  });
}

describeEachDialect('partner console', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let closed: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    // Many sign-ups come from one address here; the limit itself is the sign-in limiter's.
    service = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '1000' } });
    closed = await startTestService(database(), { env: { CONSOLE_SIGN_UP: 'closed' } });
  });
  after(async () => {
    await service?.stop();
    await closed?.stop();
  });

  const db = () => database().db;

  it('signs a new partner up, says to check the mail, and shows an empty dashboard after sign-in', async () => {
    const client = new CookieClient(service.url);
    const email = uniqueEmail('new');
    const response = await client.submit('/console/sign-up', '/console/sign-up', {
      email,
      password: PASSWORD,
      name: 'Nia <Partner>',
    });
    assert.equal(response.status, 303);
    assert.equal(locationOf(response), '/console/sign-in');
    assert.equal(client.cookie('hpa_session'), undefined, 'sign-up signs nobody in');
    const signInPage = await client.get('/console/sign-in');
    assert.match(signInPage.body, /Check your email: we sent a message to the address you entered/);
    await client.signIn(email, PASSWORD);

    const dashboard = await client.get('/console');
    assert.equal(dashboard.status, 200);
    assert.match(dashboard.body, /Your apps/);
    assert.ok(dashboard.body.includes(email));
    assert.match(dashboard.body, /You have no apps yet/);
    assert.equal(dashboard.headers.get('cache-control'), 'no-store');
    const user = await db()('users').where({ email_normalized: email.toLowerCase() }).first();
    assert.equal(user.name, 'Nia <Partner>');
  });

  it('labels the sign-up inputs', async () => {
    const page = await new CookieClient(service.url).get('/console/sign-up');
    for (const [id, label] of [
      ['email', 'Email'],
      ['password', 'Password'],
      ['name', 'Name'],
    ]) {
      assert.ok(page.body.includes(`<label for="${id}">${label}</label>`), `label ${label}`);
      assert.match(page.body, new RegExp(`<input id="${id}"`));
    }
  });

  it('creates no second account with the same email, whatever its case, and does not say so', async () => {
    const email = uniqueEmail('twice');
    assert.equal((await signUp(new CookieClient(service.url), { email })).status, 303);
    const users = await countRows(db(), 'users');
    const sessions = await countRows(db(), 'browser_sessions');

    const again = await new CookieClient(service.url).submit(
      '/console/sign-up',
      '/console/sign-up',
      {
        email: email.toUpperCase(),
        password: 'another passphrase',
        name: 'Someone Else',
      },
    );
    assert.equal(again.status, 303);
    assert.equal(locationOf(again), '/console/sign-in');
    assert.equal(await countRows(db(), 'users'), users);
    assert.equal(await countRows(db(), 'browser_sessions'), sessions);
  });

  it('refuses a short password and says how long it must be', async () => {
    const email = uniqueEmail('short');
    const response = await signUp(new CookieClient(service.url), { email, password: 'short' });
    assert.equal(response.status, 400);
    assert.match(response.body, /Password must be at least 8 characters\./);
    assert.match(response.body, /id="password"[^>]*aria-invalid="true"/);
    assert.ok(response.body.includes(`value="${email}"`), 'the email is kept');
    assert.equal(await db()('users').where({ email_normalized: email }).first(), undefined);
  });

  it('refuses forms without the right CSRF token and writes nothing', async () => {
    const client = new CookieClient(service.url);
    await client.get('/console/sign-up');
    const users = await countRows(db(), 'users');
    const base = { email: uniqueEmail('csrf'), password: PASSWORD, name: 'Cee' };
    for (const form of [base, { ...base, csrf_token: 'forged' }]) {
      const response = await client.post('/console/sign-up', form);
      assert.equal(response.status, 403);
      assert.match(response.body, /This form has expired/);
    }
    assert.equal(await countRows(db(), 'users'), users);

    assert.equal((await signUp(client)).status, 303);
    const apps = await countRows(db(), 'apps');
    const register = { name: 'Forged', client_type: 'confidential', redirect_uri_1: REDIRECT_A };
    assert.equal((await client.post('/console/apps/new', register)).status, 403);
    assert.equal(
      (await client.post('/console/apps/new', { ...register, csrf_token: 'x'.repeat(43) })).status,
      403,
    );
    // The anonymous form's token is not a signed-in form's token.
    const anonymous = await new CookieClient(service.url).get('/console/sign-in');
    const foreignToken = csrfTokenOf(anonymous.body, '/console/sign-in');
    const mixed = await client.post('/console/apps/new', { ...register, csrf_token: foreignToken });
    assert.equal(mixed.status, 403);
    assert.equal(await countRows(db(), 'apps'), apps);
  });

  it('refuses a wrong password at sign-in and lets the right one in', async () => {
    const email = uniqueEmail('signin');
    const first = new CookieClient(service.url);
    assert.equal((await signUp(first, { email })).status, 303);

    const client = new CookieClient(service.url);
    const wrong = await client.submit('/console/sign-in', '/console/sign-in', {
      email,
      password: 'not the password',
    });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /Email or password is incorrect\./);
    assert.equal(client.cookie('hpa_session'), undefined);
    const failed = await db()('audit_events').where({ type: 'sign_in.failed' });
    assert.ok(failed.every((row: any) => !String(row.details).includes('not the password')));

    const right = await client.submit('/console/sign-in', '/console/sign-in', {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    assert.equal(right.status, 303);
    assert.equal(locationOf(right), '/console');
    assert.ok((await client.get('/console')).body.includes(email));
  });

  it('sends a browser without a session to the sign-in page', async () => {
    const client = new CookieClient(service.url);
    for (const path of ['/console', '/console/apps/new', '/console/apps/abc/credentials']) {
      const response = await client.get(path);
      assert.equal(response.status, 303, path);
      assert.equal(locationOf(response), '/console/sign-in');
    }
  });

  it('signs out, ending the session', async () => {
    const client = new CookieClient(service.url);
    await signUp(client);
    const dashboard = await client.get('/console');
    const out = await client.post('/console/sign-out', {
      csrf_token: csrfTokenOf(dashboard.body, '/console/sign-out'),
    });
    assert.equal(out.status, 303);
    assert.equal(locationOf(out), '/console/sign-in');
    assert.equal(client.cookie('hpa_session'), undefined);
    assert.equal((await client.get('/console')).status, 303);
  });

  it('registers an app with two redirect URLs and lists it on the dashboard', async () => {
    const client = new CookieClient(service.url);
    await signUp(client);
    const created = await registerApp(client, {
      name: 'Interview <Sync>',
      redirect_uri_1: REDIRECT_A,
      redirect_uri_3: ` ${REDIRECT_B} `,
    });
    assert.equal(created.status, 303);
    const target = locationOf(created);
    const clientId = /^\/console\/apps\/([0-9a-f]+)\/credentials$/.exec(target)?.[1];
    assert.ok(clientId, target);

    const app = await db()('apps').where({ client_id: clientId }).first();
    assert.equal(app.name, 'Interview <Sync>');
    assert.equal(app.client_type, 'confidential');
    const uris = await db()('app_redirect_uris').where({ app_id: app.id }).orderBy('position');
    assert.deepEqual(
      uris.map((row: any) => row.uri),
      [REDIRECT_A, REDIRECT_B],
    );

    const dashboard = await client.get('/console');
    assert.ok(dashboard.body.includes('Interview &lt;Sync&gt;'), 'the name is escaped');
    assert.ok(dashboard.body.includes(clientId));
    assert.ok(dashboard.body.includes(`href="/console/apps/${clientId}/credentials"`));
  });

  it('labels the five redirect URL inputs', async () => {
    const client = new CookieClient(service.url);
    await signUp(client);
    const page = await client.get('/console/apps/new');
    for (let index = 1; index <= 5; index++) {
      assert.ok(
        page.body.includes(`<label for="redirect-uri-${index}">Redirect URL ${index}</label>`),
      );
    }
    assert.ok(!page.body.includes('redirect-uri-6'));
  });

  it('refuses a sixth redirect URL or plain http off loopback, writing nothing', async () => {
    const client = new CookieClient(service.url);
    await signUp(client);
    const apps = await countRows(db(), 'apps');
    const uris = await countRows(db(), 'app_redirect_uris');

    const six: Record<string, string> = {};
    for (let index = 1; index <= 6; index++) {
      six[`redirect_uri_${index}`] = `https://partner.example.com/cb${index}`;
    }
    const tooMany = await registerApp(client, six);
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body, /An app can register at most 5 redirect URIs \(got 6\)\./);
    assert.ok(tooMany.body.includes('https://partner.example.com/cb6'), 'what was typed is kept');

    const insecure = await registerApp(client, {
      redirect_uri_1: REDIRECT_A,
      redirect_uri_2: 'http://partner.example.com/callback',
    });
    assert.equal(insecure.status, 400);
    assert.match(
      insecure.body,
      /must use https unless the host is localhost, 127\.0\.0\.1 or \[::1\]/,
    );

    const none = await registerApp(client, {});
    assert.equal(none.status, 400);
    assert.match(none.body, /Enter at least one redirect URL\./);

    assert.equal(await countRows(db(), 'apps'), apps);
    assert.equal(await countRows(db(), 'app_redirect_uris'), uris);
  });

  it('shows the secret once, right after creation, and masked afterwards', async () => {
    const client = new CookieClient(service.url);
    await signUp(client);
    const created = await registerApp(client, { redirect_uri_1: REDIRECT_A });
    assert.ok(!locationOf(created).includes('secret'), 'no secret in the URL');
    // The only cookie set names the success message to show; the secret waits server-side.
    assert.deepEqual(
      created.headers.getSetCookie().map((cookie) => cookie.split(';')[0]),
      ['hpa_console_notice=app-registered'],
      'no secret in a cookie',
    );

    const first = await client.get(locationOf(created));
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const clientId = shownClientId(first.body);
    const secret = shownSecret(first.body);
    assert.ok(secret && secret.length >= 43, 'the secret is shown in full');
    assert.match(
      first.body,
      /Shown once after creation or rotation\. To see it again, reveal it with your password\./,
    );
    assert.match(
      first.body,
      /<p class="notice success-notice" role="status">App registered\.<\/p>/,
    );
    assert.equal((await clientCredentials(service.url, clientId, secret)).status, 200);

    const second = await client.get(locationOf(created));
    assert.equal(second.status, 200);
    assert.equal(shownSecret(second.body), undefined);
    assert.ok(!second.body.includes(secret));
    assert.match(second.body, /class="secret masked"/);
    assert.ok(second.body.includes(clientId));
  });

  it('shows a public app without a secret or a rotate button', async () => {
    const client = new CookieClient(service.url);
    await signUp(client);
    const created = await registerApp(client, {
      client_type: 'public',
      redirect_uri_1: REDIRECT_B,
    });
    assert.equal(created.status, 303);
    const page = await client.get(locationOf(created));
    assert.equal(shownSecret(page.body), undefined);
    assert.match(page.body, /Public apps have no client secret/);
    assert.ok(!page.body.includes('Rotate secret'));
  });

  it('rotates the secret: the old one fails at the token endpoint at once, the new one works', async () => {
    const client = new CookieClient(service.url);
    await signUp(client);
    const created = await registerApp(client, { redirect_uri_1: REDIRECT_A });
    const credentialsPath = locationOf(created);
    const first = await client.get(credentialsPath);
    const clientId = shownClientId(first.body);
    const oldSecret = shownSecret(first.body)!;
    assert.equal((await clientCredentials(service.url, clientId, oldSecret)).status, 200);

    const masked = await client.get(credentialsPath);
    const rotateAction = `/console/apps/${clientId}/credentials/rotate`;
    // The Credentials tab only links to the confirmation; a POST without its "yes" changes nothing.
    assert.ok(masked.body.includes(`href="${rotateAction}"`));
    const unconfirmed = await client.post(rotateAction, {
      csrf_token: csrfTokenOf(masked.body, '/console/sign-out'),
    });
    assert.equal(unconfirmed.status, 303);
    assert.equal(locationOf(unconfirmed), rotateAction);
    assert.equal((await clientCredentials(service.url, clientId, oldSecret)).status, 200);

    const confirmation = await client.get(rotateAction);
    assert.equal(confirmation.status, 200);
    assert.match(
      confirmation.body,
      /The current secret stops working at once; apps using it will fail until updated/,
    );
    assert.ok(confirmation.body.includes(`href="${credentialsPath}">Cancel</a>`));
    const rotated = await client.post(rotateAction, {
      csrf_token: csrfTokenOf(confirmation.body, rotateAction),
      confirm: 'yes',
    });
    assert.equal(rotated.status, 303);
    assert.equal(locationOf(rotated), credentialsPath);

    const shown = await client.get(credentialsPath);
    assert.match(shown.body, /role="status">Secret rotated\. The previous secret no longer works/);
    const newSecret = shownSecret(shown.body);
    assert.ok(newSecret && newSecret !== oldSecret);

    const refused = await clientCredentials(service.url, clientId, oldSecret);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'invalid_client');
    assert.equal((await clientCredentials(service.url, clientId, newSecret)).status, 200);

    assert.equal(shownSecret((await client.get(credentialsPath)).body), undefined);
    const app = await db()('apps').where({ client_id: clientId }).first();
    const audited = await db()('audit_events').where({
      type: 'app.secret_rotated',
      app_id: app.id,
    });
    assert.equal(audited.length, 1);
    assert.ok(!JSON.stringify(audited).includes(newSecret), 'the audit entry holds no secret');
  });

  it("answers another user's app exactly like a missing one", async () => {
    const owner = new CookieClient(service.url);
    await signUp(owner);
    const created = await registerApp(owner, { redirect_uri_1: REDIRECT_A });
    const credentialsPath = locationOf(created);
    const clientId = shownClientId((await owner.get(credentialsPath)).body);
    const before = await db()('apps').where({ client_id: clientId }).first();

    const intruder = new CookieClient(service.url);
    await signUp(intruder);
    const foreign = await intruder.get(credentialsPath);
    const missing = await intruder.get(
      '/console/apps/0123456789abcdef0123456789abcdef/credentials',
    );
    assert.equal(foreign.status, 404);
    assert.equal(missing.status, 404);
    assert.ok(!foreign.body.includes(clientId));
    assert.ok(!foreign.body.includes(before.name));
    const strip = (html: string) => html.replace(/<code>[^<]*<\/code>/g, '');
    assert.equal(strip(foreign.body), strip(missing.body));

    const dashboard = await intruder.get('/console');
    const rotateAction = `/console/apps/${clientId}/credentials/rotate`;
    assert.equal((await intruder.get(rotateAction)).status, 404);
    const rotate = await intruder.post(rotateAction, {
      csrf_token: csrfTokenOf(dashboard.body, '/console/sign-out'),
      confirm: 'yes',
    });
    assert.equal(rotate.status, 404);
    const after = await db()('apps').where({ client_id: clientId }).first();
    assert.equal(after.client_secret_hash, before.client_secret_hash);
    assert.ok(!(await intruder.get('/console')).body.includes(clientId));
  });

  it('shares the session with the authorization pages', async () => {
    const accounts = new AccountService(new AccountStore(db()), systemClock);
    const email = uniqueEmail('shared');
    await accounts.createUser({ email, password: PASSWORD, name: 'Sam' });
    const client = new CookieClient(service.url);
    const signedIn = await client.submit('/console/sign-in', '/console/sign-in', {
      email,
      password: PASSWORD,
    });
    assert.equal(signedIn.status, 303);
    // Already signed in: the console's sign-in page steps aside.
    const page = await client.get('/console/sign-in');
    assert.equal(page.status, 303);
    assert.equal(locationOf(page), '/console');

    // The authorization endpoint sees the same user, signed in: it asks for consent directly.
    const created = await registerApp(client, { redirect_uri_1: REDIRECT_B });
    const clientId = shownClientId((await client.get(locationOf(created))).body);
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT_B,
      response_type: 'code',
      scope: 'email',
      state: 'xyz',
    });
    const authorize = await client.get(`/oauth/v2/authorize?${query}`);
    assert.equal(authorize.status, 200);
    assert.match(authorize.body, /wants to access your account/);
    assert.ok(authorize.body.includes(email));
  });

  it('refuses sign-up when configured closed, writing nothing', async () => {
    const client = new CookieClient(closed.url);
    const page = await client.get('/console/sign-up');
    assert.equal(page.status, 403);
    assert.match(page.body, /Sign-up is closed/);
    const signIn = await client.get('/console/sign-in');
    assert.ok(!signIn.body.includes('/console/sign-up'), 'no link to a closed sign-up');

    const users = await countRows(db(), 'users');
    const response = await client.post('/console/sign-up', {
      csrf_token: csrfTokenOf(signIn.body, '/console/sign-in'),
      email: uniqueEmail('closed'),
      password: PASSWORD,
      name: 'Closed',
    });
    assert.equal(response.status, 403);
    assert.match(response.body, /Sign-up is closed/);
    assert.equal(await countRows(db(), 'users'), users);
  });

  it('answers unknown console paths with the console not-found page', async () => {
    const response = await new CookieClient(service.url).get('/console/nowhere');
    assert.equal(response.status, 404);
    assert.match(response.body, /Page not found/);
  });
});
