import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { AccountService } from '../../src/accounts/account-service.js';
import type { AppService } from '../../src/accounts/app-service.js';
import type { Database } from '../../src/db/database.js';
import type { AuthorizationCodeRow, EmployerRow } from '../../src/db/rows.js';
import { withParameters } from '../../src/oauth/authorize/redirects.js';
import { sha256Hex } from '../../src/security/random.js';
import { describeEachDialect } from '../support/databases.js';
import { assertResponseMatches } from '../support/openapi-contract.js';
import { startTestService } from '../support/service.js';
import { testAccounts } from '../support/compose.js';

const PASSWORD = 'correct horse battery staple';
const REDIRECT_URI = 'http://127.0.0.1:8080/callback';
const REDIRECT_WITH_QUERY = 'http://127.0.0.1:8080/return?tenant=a%20b&lang=en';
/** A state a careless client would mangle: reserved characters, spaces and non-ASCII. */
const TRICKY_STATE = 'a+b/c=d%25e f&g?h#i ü 雪 🙂 %zz';

interface Observed {
  status: number;
  headers: Headers;
  body: string;
  setCookies: string[];
}

/** A cookie-keeping client that never follows redirects, so each hop can be inspected. */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  get(path: string): Promise<Observed> {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string>): Promise<Observed> {
    return this.request('POST', path, form);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  forget(name: string): void {
    this.cookies.delete(name);
  }

  private async request(
    method: string,
    path: string,
    form?: Record<string, string>,
  ): Promise<Observed> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      redirect: 'manual',
      body: form && new URLSearchParams(form).toString(),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      body: await response.text(),
      setCookies,
    };
  }
}

interface Form {
  action: string;
  fields: Record<string, string>;
}

/** The page's POST forms with their hidden fields, as a browser would submit them. */
function formsOf(html: string): Form[] {
  const forms: Form[] = [];
  for (const match of html.matchAll(
    /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g,
  )) {
    const fields: Record<string, string> = {};
    for (const input of match[2]!.matchAll(
      /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
    )) {
      fields[unescapeHtml(input[1]!)] = unescapeHtml(input[2]!);
    }
    forms.push({ action: unescapeHtml(match[1]!), fields });
  }
  return forms;
}

function formFor(html: string, action: string): Form {
  const form = formsOf(html).find((candidate) => candidate.action === action);
  assert.ok(form, `the page has no form posting to ${action}:\n${html}`);
  return form;
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

function authorizeQuery(clientId: string, overrides: Record<string, string | undefined> = {}) {
  const parameters: Record<string, string | undefined> = {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid email offline_access employer_access',
    state: TRICKY_STATE,
    ...overrides,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) query.append(name, value);
  }
  return `/oauth/v2/authorize?${query}`;
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Where a redirect goes, with its query parsed. */
function location(response: Observed): URL {
  const target = response.headers.get('location');
  assert.ok(target, `expected a Location header (status ${response.status}):\n${response.body}`);
  return new URL(target, 'http://service.invalid');
}

function isSignInPage(response: Observed): boolean {
  return response.status === 200 && response.body.includes('<label for="email">Email</label>');
}

function isConsentPage(response: Observed): boolean {
  return response.status === 200 && response.body.includes('value="allow"');
}

function isEmployerPage(response: Observed): boolean {
  return response.status === 200 && response.body.includes('<h1>Choose an employer</h1>');
}

describe('authorization redirects', () => {
  it('keep the registered URI as it is and percent-encode what they add', () => {
    assert.equal(
      withParameters('https://app.example/cb?x=a%20b', [
        ['code', 'c+/='],
        ['state', undefined],
        ['iss', 'http://localhost:3000'],
      ]),
      'https://app.example/cb?x=a%20b&code=c%2B%2F%3D&iss=http%3A%2F%2Flocalhost%3A3000',
    );
    assert.equal(
      withParameters('https://app.example/cb', [['a', 'b c']]),
      'https://app.example/cb?a=b%20c',
    );
    assert.equal(
      withParameters('https://app.example/cb?', [['a', 'é']]),
      'https://app.example/cb?a=%C3%A9',
    );
  });
});

describeEachDialect('GET /oauth/v2/authorize', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let db: Database;
  let accounts: AccountService;
  let appService: AppService;
  let app: { id: string; client_id: string; name: string };
  let publicApp: { id: string; client_id: string };
  let outsider: EmployerRow;

  before(async () => {
    service = await startTestService(database());
    db = database().db;
    ({ accounts, apps: appService } = testAccounts(db));
    const owner = await newUser('owner');
    app = (
      await appService.createApp({
        ownerEmail: owner.email,
        name: 'Scheduler <Pro> & Co',
        redirectUris: [REDIRECT_URI, REDIRECT_WITH_QUERY],
      })
    ).app;
    publicApp = (
      await appService.createApp({
        ownerEmail: owner.email,
        name: 'Scheduler SPA',
        redirectUris: [REDIRECT_URI],
        public: true,
      })
    ).app;
    outsider = (await accounts.createEmployer({ name: 'Initech' })).employer;
  });
  after(async () => {
    await service?.stop();
  });

  /** A fresh user (so no consent is remembered), a member of the given employers. */
  async function newUser(label = 'ada', employerNames: string[] = []) {
    const email = `${label}-${randomBytes(4).toString('hex')}@Example.com`;
    const user = await accounts.createUser({ email, password: PASSWORD, name: label });
    const employers: EmployerRow[] = [];
    for (const name of employerNames) {
      employers.push((await accounts.createEmployer({ name, memberEmails: [email] })).employer);
    }
    return { ...user, employers };
  }

  /** GET /oauth/v2/authorize, checked against openapi.yaml. */
  async function authorize(browser: Browser, path: string): Promise<Observed> {
    const response = await browser.get(path);
    assertResponseMatches('GET', '/oauth/v2/authorize', response);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    return response;
  }

  /** Signs in through the page and returns the 303 that follows. */
  async function signIn(browser: Browser, path: string, email: string, password = PASSWORD) {
    const page = await authorize(browser, path);
    assert.ok(isSignInPage(page), `expected the sign-in page:\n${page.body}`);
    const form = formFor(page.body, '/oauth/v2/authorize/sign-in');
    return browser.post(form.action, { ...form.fields, email, password });
  }

  /** Signs in and allows; returns the response of the authorization endpoint after that. */
  async function signInAndAllow(browser: Browser, path: string, email: string) {
    const signedIn = await signIn(browser, path, email);
    assert.equal(signedIn.status, 303);
    const consent = await authorize(
      browser,
      location(signedIn).pathname + location(signedIn).search,
    );
    assert.ok(isConsentPage(consent), `expected the consent page:\n${consent.body}`);
    const form = formFor(consent.body, '/oauth/v2/authorize/consent');
    const allowed = await browser.post(form.action, { ...form.fields, decision: 'allow' });
    assert.equal(allowed.status, 303);
    assert.equal(allowed.headers.get('cache-control'), 'no-store');
    return authorize(browser, location(allowed).pathname + location(allowed).search);
  }

  async function codeRow(code: string): Promise<AuthorizationCodeRow> {
    const row = await db('authorization_codes')
      .where({ code_hash: sha256Hex(code) })
      .first();
    assert.ok(row, 'the code is stored under its SHA-256 digest');
    return row;
  }

  describe('requests that cannot be redirected', () => {
    it('answers an unknown client_id with a 400 page and no Location', async () => {
      const response = await authorize(new Browser(service.url), authorizeQuery('no-such-client'));
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('location'), null);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(response.body, /client_id does not name a registered app/);
      assert.match(response.body, /<html lang="en">/);
    });

    it('answers a missing client_id the same way', async () => {
      const response = await authorize(
        new Browser(service.url),
        authorizeQuery(app.client_id, { client_id: undefined }),
      );
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('location'), null);
      assert.match(response.body, /client_id is required/);
    });

    it('answers a missing or unregistered redirect_uri with a 400 page and no Location', async () => {
      const browser = new Browser(service.url);
      for (const redirectUri of [
        undefined,
        'https://attacker.example/callback',
        `${REDIRECT_URI}/`,
        `${REDIRECT_URI}?extra=1`,
        REDIRECT_URI.toUpperCase(),
      ]) {
        const response = await authorize(
          browser,
          authorizeQuery(app.client_id, { redirect_uri: redirectUri }),
        );
        assert.equal(response.status, 400, `redirect_uri ${redirectUri}`);
        assert.equal(response.headers.get('location'), null);
      }
      const repeated = await authorize(
        browser,
        `${authorizeQuery(app.client_id)}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`,
      );
      assert.equal(repeated.status, 400);
      assert.match(repeated.body, /redirect_uri must be given only once/);
    });
  });

  describe('errors sent back to the client', () => {
    async function errorRedirect(
      overrides: Record<string, string | undefined>,
      clientId = app.client_id,
    ) {
      const response = await authorize(
        new Browser(service.url),
        authorizeQuery(clientId, overrides),
      );
      assert.equal(response.status, 302, response.body);
      const target = location(response);
      assert.equal(`${target.origin}${target.pathname}`, REDIRECT_URI);
      assert.equal(target.searchParams.get('iss'), service.config.authUrl);
      assert.equal(target.searchParams.get('code'), null);
      return target.searchParams;
    }

    it('echoes state byte for byte', async () => {
      const params = await errorRedirect({
        code_challenge_method: 'plain',
        code_challenge: pkce().challenge,
      });
      assert.equal(params.get('state'), TRICKY_STATE);
    });

    it('refuses code_challenge_method=plain with invalid_request', async () => {
      const params = await errorRedirect({
        code_challenge_method: 'plain',
        code_challenge: pkce().challenge,
      });
      assert.equal(params.get('error'), 'invalid_request');
      assert.equal(params.get('error_description'), 'code_challenge_method must be S256');
    });

    it('refuses a PKCE method without a challenge and a challenge without a method', async () => {
      const withoutChallenge = await errorRedirect({ code_challenge_method: 'S256' });
      assert.equal(withoutChallenge.get('error'), 'invalid_request');
      assert.match(withoutChallenge.get('error_description') ?? '', /^code_challenge is required/);
      const withoutMethod = await errorRedirect({ code_challenge: pkce().challenge });
      assert.equal(withoutMethod.get('error'), 'invalid_request');
      assert.match(
        withoutMethod.get('error_description') ?? '',
        /^code_challenge_method is required/,
      );
    });

    it('requires PKCE from a public client', async () => {
      const params = await errorRedirect({}, publicApp.client_id);
      assert.equal(params.get('error'), 'invalid_request');
      assert.match(params.get('error_description') ?? '', /public clients must use PKCE/);
    });

    it('answers an unknown or missing scope with invalid_scope', async () => {
      const unknown = await errorRedirect({ scope: 'email jobs.read' });
      assert.equal(unknown.get('error'), 'invalid_scope');
      assert.match(unknown.get('error_description') ?? '', /"jobs\.read" is not supported/);
      assert.equal(unknown.get('state'), TRICKY_STATE);
      const missing = await errorRedirect({ scope: undefined });
      assert.equal(missing.get('error'), 'invalid_scope');
      assert.equal(missing.get('error_description'), 'scope is required');
    });

    it('answers another response_type with unsupported_response_type', async () => {
      const params = await errorRedirect({ response_type: 'token' });
      assert.equal(params.get('error'), 'unsupported_response_type');
      assert.equal(params.get('error_description'), 'response_type must be code');
      const missing = await errorRedirect({ response_type: undefined });
      assert.equal(missing.get('error'), 'invalid_request');
      assert.equal(missing.get('error_description'), 'response_type is required');
    });

    it('names the parameter at fault in invalid_request', async () => {
      const params = await errorRedirect({ prompt: 'login' });
      assert.equal(params.get('error'), 'invalid_request');
      assert.equal(params.get('error_description'), 'prompt must be select_employer');
    });

    it('keeps the query of a registered redirect_uri', async () => {
      const response = await authorize(
        new Browser(service.url),
        authorizeQuery(app.client_id, { redirect_uri: REDIRECT_WITH_QUERY, scope: 'nope' }),
      );
      assert.equal(response.status, 302);
      const target = response.headers.get('location') ?? '';
      assert.ok(target.startsWith(`${REDIRECT_WITH_QUERY}&error=invalid_scope&`), target);
      assert.equal(new URL(target).searchParams.get('tenant'), 'a b');
    });
  });

  describe('sign-in', () => {
    it('shows a labelled form with the headers pages need', async () => {
      const browser = new Browser(service.url);
      const page = await authorize(browser, authorizeQuery(app.client_id));
      assert.ok(isSignInPage(page));
      assert.match(page.body, /<label for="password">Password<\/label>/);
      assert.match(page.body, /<button type="submit" class="primary">Sign in<\/button>/);
      // The app's name is escaped, never interpreted as markup.
      assert.match(page.body, /Scheduler &lt;Pro&gt; &amp; Co/);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:8080(;|$)/);
      assert.doesNotMatch(page.body, /<script|style=/);
      const csrfCookie = page.setCookies.find((line) => line.startsWith('hpa_csrf='));
      assert.ok(csrfCookie, 'the page sets the double-submit cookie');
      assert.match(csrfCookie, /; HttpOnly/);
      assert.match(csrfCookie, /; SameSite=Lax/);
      assert.match(csrfCookie, /; Path=\//);
    });

    it('answers a wrong password or an unknown email with the same generic 401 page', async () => {
      const user = await newUser();
      for (const [email, password] of [
        [user.email, 'wrong password!'],
        [`nobody-${randomBytes(3).toString('hex')}@example.com`, PASSWORD],
      ] as const) {
        const browser = new Browser(service.url);
        const response = await signIn(browser, authorizeQuery(app.client_id), email, password);
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('cache-control'), 'no-store');
        assert.match(response.body, /Email or password is incorrect/);
        assert.match(response.body, /role="alert"/);
        assert.equal(browser.cookie('hpa_session'), undefined);
      }
      const audit = await db('audit_events').where({ type: 'sign_in.failed' });
      assert.ok(audit.length >= 2);
      for (const row of audit) {
        assert.doesNotMatch(JSON.stringify(row), /wrong password|correct horse/);
      }
    });

    it('asks again for an empty email or password without counting an attempt', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const response = await signIn(browser, authorizeQuery(app.client_id), user.email, '');
      assert.equal(response.status, 400);
      assert.match(response.body, /Enter your email address and password/);
      assert.match(response.body, new RegExp(`value="${user.email}"`));
      assert.deepEqual(await db('audit_events').where({ actor_user_id: user.id }), []);
    });

    it('starts a 12-hour session with a hashed id and safe cookie flags', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const path = authorizeQuery(app.client_id);
      const response = await signIn(browser, path, user.email.toUpperCase());
      assert.equal(response.status, 303);
      assert.equal(location(response).pathname + location(response).search, path);
      const cookie = response.setCookies.find((line) => line.startsWith('hpa_session='));
      assert.ok(cookie);
      assert.match(cookie, /; Max-Age=43200/);
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
      assert.match(cookie, /; Path=\//);
      assert.doesNotMatch(cookie, /; Secure/);

      const id = browser.cookie('hpa_session')!;
      assert.match(id, /^[A-Za-z0-9_-]{43}$/);
      const rows = await db('browser_sessions').where({ user_id: user.id });
      assert.equal(rows.length, 1);
      assert.equal(rows[0].id_hash, sha256Hex(id));
      assert.equal(Number(rows[0].expires_at) - Number(rows[0].created_at), 12 * 3600 * 1000);
      assert.doesNotMatch(JSON.stringify(rows), new RegExp(id));
      const audit = await db('audit_events').where({
        type: 'sign_in.succeeded',
        actor_user_id: user.id,
      });
      assert.equal(audit.length, 1);
      assert.equal(audit[0].app_id, app.id);
    });

    it('ignores and deletes an expired session', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const path = authorizeQuery(app.client_id);
      await signIn(browser, path, user.email);
      const idHash = sha256Hex(browser.cookie('hpa_session')!);
      await db('browser_sessions')
        .where({ id_hash: idHash })
        .update({ expires_at: Date.now() - 1 });
      const page = await authorize(browser, path);
      assert.ok(isSignInPage(page));
      assert.equal(await db('browser_sessions').where({ id_hash: idHash }).first(), undefined);
    });

    it('refuses a sign-in without the CSRF cookie or token with 403 and starts nothing', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const page = await authorize(browser, authorizeQuery(app.client_id));
      const form = formFor(page.body, '/oauth/v2/authorize/sign-in');
      const credentials = { email: user.email, password: PASSWORD };

      const withoutToken = await browser.post(form.action, {
        ...form.fields,
        ...credentials,
        csrf_token: '',
      });
      const wrongToken = await browser.post(form.action, {
        ...form.fields,
        ...credentials,
        csrf_token: form.fields.csrf_token!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      });
      browser.forget('hpa_csrf');
      const withoutCookie = await browser.post(form.action, { ...form.fields, ...credentials });
      for (const response of [withoutToken, wrongToken, withoutCookie]) {
        assert.equal(response.status, 403);
        assert.match(response.body, /This form has expired/);
        assert.equal(response.headers.get('location'), null);
      }
      assert.equal(browser.cookie('hpa_session'), undefined);
      assert.deepEqual(await db('browser_sessions').where({ user_id: user.id }), []);
    });
  });

  describe('consent and code', () => {
    it('goes from sign-in through consent to a code redirect', async () => {
      const user = await newUser('grace', ['Acme Hiring']);
      const browser = new Browser(service.url);
      const { challenge } = pkce();
      const path = authorizeQuery(app.client_id, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        nonce: 'n-0S6_WzA2Mj',
        scope: 'employer_access email openid email',
      });
      const signedIn = await signIn(browser, path, user.email);
      const consent = await authorize(
        browser,
        location(signedIn).pathname + location(signedIn).search,
      );
      assert.ok(isConsentPage(consent));
      assert.match(consent.body, /Scheduler &lt;Pro&gt; &amp; Co wants to access your account/);
      assert.match(consent.body, /See your email address/);
      assert.match(consent.body, /act on their behalf/);
      assert.match(consent.body, />Allow<\/button>/);
      assert.match(consent.body, />Deny<\/button>/);

      const form = formFor(consent.body, '/oauth/v2/authorize/consent');
      const allowed = await browser.post(form.action, { ...form.fields, decision: 'allow' });
      assert.equal(allowed.status, 303);
      const done = await authorize(browser, location(allowed).pathname + location(allowed).search);
      assert.equal(done.status, 302);
      const target = location(done);
      assert.equal(`${target.origin}${target.pathname}`, REDIRECT_URI);
      assert.equal(target.searchParams.get('state'), TRICKY_STATE);
      assert.equal(target.searchParams.get('iss'), service.config.authUrl);
      assert.equal(target.searchParams.get('employer'), null);
      const code = target.searchParams.get('code')!;
      assert.match(code, /^[A-Za-z0-9_-]{43}$/);

      const row = await codeRow(code);
      const session = await db('browser_sessions').where({ user_id: user.id }).first();
      assert.deepEqual(
        {
          app_id: row.app_id,
          user_id: row.user_id,
          redirect_uri: row.redirect_uri,
          scope: row.scope,
          code_challenge: row.code_challenge,
          code_challenge_method: row.code_challenge_method,
          nonce: row.nonce,
          employer_id: row.employer_id,
          auth_time: Number(row.auth_time),
          consumed_at: row.consumed_at,
        },
        {
          app_id: app.id,
          user_id: user.id,
          redirect_uri: REDIRECT_URI,
          scope: 'email employer_access openid',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          nonce: 'n-0S6_WzA2Mj',
          employer_id: null,
          auth_time: Number(session.created_at),
          consumed_at: null,
        },
      );
      assert.equal(Number(row.expires_at) - Number(row.created_at), 10 * 60 * 1000);
      const everything = JSON.stringify(await db('authorization_codes'));
      assert.ok(!everything.includes(code), 'the code itself is never stored');

      const consents = await db('consents').where({ user_id: user.id, app_id: app.id });
      assert.equal(consents.length, 1);
      assert.equal(consents[0].scope_set, 'email employer_access openid');
      const granted = await db('audit_events').where({
        type: 'consent.granted',
        actor_user_id: user.id,
      });
      assert.equal(granted.length, 1);
    });

    it('remembers consent for the same user, app and scope set', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const first = await signInAndAllow(browser, authorizeQuery(app.client_id), user.email);
      assert.equal(first.status, 302);

      // Same scopes in another order and spelling: straight to the client.
      const again = await authorize(
        browser,
        authorizeQuery(app.client_id, {
          scope: 'employer_access offline_access email openid',
          state: 'second',
        }),
      );
      assert.equal(again.status, 302);
      assert.equal(location(again).searchParams.get('state'), 'second');
      assert.ok(location(again).searchParams.get('code'));

      // A different scope set asks again.
      const wider = await authorize(
        browser,
        authorizeQuery(app.client_id, {
          scope: 'openid email offline_access employer_access interviews.schedule',
        }),
      );
      assert.ok(isConsentPage(wider));
      assert.match(wider.body, /Schedule, change and cancel virtual interviews/);
    });

    it('sends access_denied when the user denies', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const signedIn = await signIn(browser, authorizeQuery(app.client_id), user.email);
      const consent = await authorize(
        browser,
        location(signedIn).pathname + location(signedIn).search,
      );
      const form = formFor(consent.body, '/oauth/v2/authorize/consent');
      const denied = await browser.post(form.action, { ...form.fields, decision: 'deny' });
      assert.equal(denied.status, 303);
      const target = location(denied);
      assert.equal(`${target.origin}${target.pathname}`, REDIRECT_URI);
      assert.equal(target.searchParams.get('error'), 'access_denied');
      assert.equal(target.searchParams.get('state'), TRICKY_STATE);
      assert.equal(target.searchParams.get('iss'), service.config.authUrl);
      assert.equal(target.searchParams.get('code'), null);
      assert.deepEqual(await db('consents').where({ user_id: user.id }), []);
      const audit = await db('audit_events').where({
        type: 'consent.denied',
        actor_user_id: user.id,
      });
      assert.equal(audit.length, 1);
    });

    it('refuses a consent POST without or with a wrong CSRF token and writes nothing', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const signedIn = await signIn(browser, authorizeQuery(app.client_id), user.email);
      const consent = await authorize(
        browser,
        location(signedIn).pathname + location(signedIn).search,
      );
      const form = formFor(consent.body, '/oauth/v2/authorize/consent');
      const { csrf_token: token, ...withoutToken } = form.fields;
      const missing = await browser.post(form.action, { ...withoutToken, decision: 'allow' });
      const wrong = await browser.post(form.action, {
        ...form.fields,
        csrf_token: `${token!.slice(0, -2)}xx`,
        decision: 'allow',
      });
      // The token before sign-in is not valid for the signed-in session's forms.
      const signInForm = formFor(
        (await authorize(new Browser(service.url), authorizeQuery(app.client_id))).body,
        '/oauth/v2/authorize/sign-in',
      );
      const foreign = await browser.post(form.action, {
        ...form.fields,
        csrf_token: signInForm.fields.csrf_token!,
        decision: 'allow',
      });
      for (const response of [missing, wrong, foreign]) {
        assert.equal(response.status, 403);
        assert.equal(response.headers.get('location'), null);
        assert.match(response.body, /Nothing was changed/);
      }
      assert.deepEqual(await db('consents').where({ user_id: user.id }), []);
      assert.deepEqual(
        await db('audit_events').where({ type: 'consent.granted', actor_user_id: user.id }),
        [],
      );
    });

    it('sends a form that arrives without a session back to the start, writing nothing', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const path = authorizeQuery(app.client_id);
      const signedIn = await signIn(browser, path, user.email);
      const consent = await authorize(
        browser,
        location(signedIn).pathname + location(signedIn).search,
      );
      const form = formFor(consent.body, '/oauth/v2/authorize/consent');
      browser.forget('hpa_session');
      const response = await browser.post(form.action, { ...form.fields, decision: 'allow' });
      assert.equal(response.status, 303);
      assert.equal(location(response).pathname + location(response).search, path);
      assert.deepEqual(await db('consents').where({ user_id: user.id }), []);
    });

    it('signs out from the consent page to let another account sign in', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      const path = authorizeQuery(app.client_id);
      const signedIn = await signIn(browser, path, user.email);
      const consent = await authorize(
        browser,
        location(signedIn).pathname + location(signedIn).search,
      );
      assert.match(consent.body, /Sign in with another account/);
      const form = formFor(consent.body, '/oauth/v2/authorize/sign-out');
      const idHash = sha256Hex(browser.cookie('hpa_session')!);
      const signedOut = await browser.post(form.action, form.fields);
      assert.equal(signedOut.status, 303);
      assert.match(signedOut.setCookies.join('\n'), /hpa_session=; Max-Age=0/);
      assert.equal(browser.cookie('hpa_session'), undefined);
      assert.equal(await db('browser_sessions').where({ id_hash: idHash }).first(), undefined);
      assert.ok(
        isSignInPage(
          await authorize(browser, location(signedOut).pathname + location(signedOut).search),
        ),
      );
    });

    it('re-checks the request a form carries, so a tampered form cannot skip consent', async () => {
      const user = await newUser();
      const browser = new Browser(service.url);
      await signInAndAllow(browser, authorizeQuery(app.client_id, { scope: 'email' }), user.email);
      const consent = await authorize(
        browser,
        authorizeQuery(app.client_id, { scope: 'employer_access' }),
      );
      assert.ok(isConsentPage(consent));
      // The employer form is posted with a request for which consent was never given.
      const form = formFor(consent.body, '/oauth/v2/authorize/consent');
      const tampered = await browser.post('/oauth/v2/authorize/employer', {
        ...form.fields,
        employer: '',
      });
      assert.equal(tampered.status, 303);
      assert.equal(location(tampered).pathname, '/oauth/v2/authorize');
      assert.equal(location(tampered).searchParams.get('code'), null);
      // A request rewritten to an unregistered redirect_uri ends on the error page.
      const rewritten = await browser.post(form.action, {
        ...form.fields,
        authorization_request: form.fields.authorization_request!.replace(
          encodeURIComponent(REDIRECT_URI),
          encodeURIComponent('https://attacker.example/cb'),
        ),
        decision: 'allow',
      });
      assert.equal(rewritten.status, 400);
      assert.equal(rewritten.headers.get('location'), null);
      assert.deepEqual(
        (await db('consents').where({ user_id: user.id })).map((row) => row.scope_set),
        ['email'],
      );
    });
  });

  describe('prompt=select_employer', () => {
    const selectEmployer = { prompt: 'select_employer' };

    it('lets the user pick one of their employers and returns it as employer', async () => {
      const user = await newUser('lin', ['Zeta Staffing', 'Acme Hiring']);
      const browser = new Browser(service.url);
      const page = await signInAndAllow(
        browser,
        authorizeQuery(app.client_id, selectEmployer),
        user.email,
      );
      assert.ok(isEmployerPage(page), page.body);
      for (const [index, name] of ['Acme Hiring', 'Zeta Staffing'].entries()) {
        // The name first; the id and the user's role follow under it.
        assert.match(page.body, new RegExp(`<label for="employer-${index + 1}">${name}<br>`));
      }
      assert.match(page.body, /<label for="employer-none">Continue without an employer<\/label>/);
      assert.match(page.body, />Continue<\/button>/);

      const chosen = user.employers.find((employer) => employer.name === 'Zeta Staffing')!;
      const form = formFor(page.body, '/oauth/v2/authorize/employer');
      const done = await browser.post(form.action, { ...form.fields, employer: chosen.id });
      assert.equal(done.status, 303);
      const target = location(done);
      assert.equal(target.searchParams.get('employer'), chosen.id);
      assert.equal(target.searchParams.get('state'), TRICKY_STATE);
      assert.equal(target.searchParams.get('iss'), service.config.authUrl);
      const row = await codeRow(target.searchParams.get('code')!);
      assert.equal(row.employer_id, chosen.id);
    });

    it('continues without an employer when the user says so', async () => {
      const user = await newUser('sam', ['Acme Hiring']);
      const browser = new Browser(service.url);
      const page = await signInAndAllow(
        browser,
        authorizeQuery(app.client_id, selectEmployer),
        user.email,
      );
      const form = formFor(page.body, '/oauth/v2/authorize/employer');
      const done = await browser.post(form.action, { ...form.fields, employer: '' });
      assert.equal(done.status, 303);
      const target = location(done);
      assert.equal(target.searchParams.has('employer'), false);
      assert.equal((await codeRow(target.searchParams.get('code')!)).employer_id, null);
    });

    it('refuses an employer the user does not belong to, or no choice at all', async () => {
      const user = await newUser('kim', ['Acme Hiring']);
      const browser = new Browser(service.url);
      const page = await signInAndAllow(
        browser,
        authorizeQuery(app.client_id, selectEmployer),
        user.email,
      );
      const form = formFor(page.body, '/oauth/v2/authorize/employer');
      for (const choice of [{ employer: outsider.id }, {} as Record<string, string>]) {
        const refused = await browser.post(form.action, { ...form.fields, ...choice });
        assert.equal(refused.status, 400);
        assert.equal(refused.headers.get('location'), null);
        assert.match(refused.body, /role="alert"/);
        assert.match(refused.body, /Choose one of your employers/);
      }
      assert.deepEqual(await db('authorization_codes').where({ user_id: user.id }), []);
    });

    it('skips the page for a user without employers, and without employer_access', async () => {
      const loner = await newUser('solo');
      const browser = new Browser(service.url);
      const done = await signInAndAllow(
        browser,
        authorizeQuery(app.client_id, selectEmployer),
        loner.email,
      );
      assert.equal(done.status, 302);
      assert.ok(location(done).searchParams.get('code'));
      assert.equal(location(done).searchParams.has('employer'), false);

      const member = await newUser('mo', ['Acme Hiring']);
      const other = new Browser(service.url);
      const plain = await signInAndAllow(
        other,
        authorizeQuery(app.client_id, { ...selectEmployer, scope: 'email' }),
        member.email,
      );
      assert.equal(plain.status, 302);
      assert.equal(location(plain).searchParams.has('employer'), false);
    });
  });

  describe('sign-in rate limit', () => {
    let limited: Awaited<ReturnType<typeof startTestService>>;
    before(async () => {
      limited = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '3' } });
    });
    after(async () => {
      await limited?.stop();
    });

    it('answers 429 with Retry-After once the failures are used up, even for the right password', async () => {
      const user = await newUser('eve');
      const browser = new Browser(limited.url);
      const path = authorizeQuery(app.client_id);
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const failed = await signIn(browser, path, user.email, `wrong password ${attempt}`);
        assert.equal(failed.status, 401, `attempt ${attempt}`);
      }
      for (const password of ['wrong again', PASSWORD]) {
        const blocked = await signIn(browser, path, user.email, password);
        assert.equal(blocked.status, 429);
        const retryAfter = Number(blocked.headers.get('retry-after'));
        assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
        assert.match(blocked.body, /Too many failed sign-in attempts/);
        assert.match(blocked.body, /try again in 15 minutes/);
        assert.equal(browser.cookie('hpa_session'), undefined);
      }
      assert.equal((await db('audit_events').where({ type: 'sign_in.rate_limited' })).length, 2);

      // Another email from the same address is counted separately.
      const other = await newUser('frank');
      const signedIn = await signIn(new Browser(limited.url), path, other.email);
      assert.equal(signedIn.status, 303);
    });
  });

  describe('over https', () => {
    let secure: Awaited<ReturnType<typeof startTestService>>;
    before(async () => {
      secure = await startTestService(database(), {
        env: { AUTH_URL: 'https://auth.example.test' },
      });
    });
    after(async () => {
      await secure?.stop();
    });

    it('marks the cookies Secure and uses AUTH_URL as iss', async () => {
      const user = await newUser();
      const browser = new Browser(secure.url);
      const page = await authorize(browser, authorizeQuery(app.client_id));
      assert.match(page.setCookies.find((line) => line.startsWith('hpa_csrf=')) ?? '', /; Secure/);
      const form = formFor(page.body, '/oauth/v2/authorize/sign-in');
      const signedIn = await browser.post(form.action, {
        ...form.fields,
        email: user.email,
        password: PASSWORD,
      });
      assert.equal(signedIn.status, 303);
      assert.match(
        signedIn.setCookies.find((line) => line.startsWith('hpa_session=')) ?? '',
        /; Secure/,
      );
      const refused = await authorize(browser, authorizeQuery(app.client_id, { scope: 'bogus' }));
      assert.equal(location(refused).searchParams.get('iss'), 'https://auth.example.test');
    });
  });

  it('serves the stylesheet', async () => {
    const response = await fetch(`${service.url}/assets/app.css`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(await response.text(), /:focus-visible/);
  });
});
