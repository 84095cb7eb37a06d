import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { AccountService } from '../../src/accounts/account-service.js';
import type { AppService } from '../../src/accounts/app-service.js';
import { ConsoleClient as Browser, locationOf, unescapeHtml } from '../support/console-client.js';
import type { Page } from '../support/console-client.js';
import { testAccounts } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';
const REDIRECT_URI = 'https://partner.example.com/callback';
const HOSTILE_NAME = '<script>alert("x")</script> & Sons';

function authorizePath(clientId: string, extra: Record<string, string> = {}): string {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid employer_access',
    state: 'xyz',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  });
  return `/oauth/v2/authorize?${query}`;
}

/** The hidden fields of the page's form that posts to `action`. */
function hiddenFields(html: string, action: string): Record<string, string> {
  for (const form of html.matchAll(
    /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g,
  )) {
    if (unescapeHtml(form[1]!) !== action) continue;
    const fields: Record<string, string> = {};
    for (const input of form[2]!.matchAll(
      /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
    )) {
      fields[unescapeHtml(input[1]!)] = unescapeHtml(input[2]!);
    }
    return fields;
  }
  assert.fail(`no form posting to ${action}:\n${html}`);
}

describeEachDialect('consent says who is asking', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let accounts: AccountService;
  let apps: AppService;

  before(async () => {
    service = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '1000' } });
    ({ accounts, apps } = testAccounts(database().db));
  });
  after(async () => {
    await service?.stop();
  });

  async function newUser(name?: string) {
    const email = `user-${randomBytes(4).toString('hex')}@example.com`;
    return accounts.createUser({ email, password: PASSWORD, ...(name && { name }) });
  }

  /** Signs in on the authorization page; the page that follows (consent, selection…). */
  async function signedIn(path: string, email: string): Promise<{ browser: Browser; page: Page }> {
    const browser = new Browser(service.url);
    const signIn = await browser.get(path);
    assert.equal(signIn.status, 200, signIn.body);
    const posted = await browser.post('/oauth/v2/authorize/sign-in', {
      ...hiddenFields(signIn.body, '/oauth/v2/authorize/sign-in'),
      email,
      password: PASSWORD,
    });
    assert.equal(posted.status, 303, posted.body);
    return { browser, page: await browser.get(locationOf(posted)) };
  }

  it('shows the logo, the developer name and the links, escaped', async () => {
    const owner = await newUser('Owner Olga');
    const { app } = await apps.createApp({
      ownerEmail: owner.email,
      name: 'Hire <Bot>',
      redirectUris: [REDIRECT_URI],
      publisher: {
        developerName: HOSTILE_NAME,
        homepageUrl: 'https://hirebot.example/?a=1&b="2"',
        privacyPolicyUrl: 'https://hirebot.example/privacy',
        logoUrl: 'https://cdn.hirebot.example/logo.png',
      },
    });
    const user = await newUser();
    const { page } = await signedIn(authorizePath(app.client_id), user.email);
    assert.equal(page.status, 200);
    assert.ok(page.body.includes('value="allow"'), page.body);
    assert.ok(
      page.body.includes(
        'by <strong>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons</strong>',
      ),
      page.body,
    );
    assert.ok(!page.body.includes('<script>'), 'nothing the owner typed runs');
    assert.ok(
      page.body.includes(
        '<a href="https://hirebot.example/?a=1&amp;b=&quot;2&quot;" rel="noopener noreferrer">',
      ),
    );
    assert.ok(
      page.body.includes('<a href="https://hirebot.example/privacy" rel="noopener noreferrer">'),
    );
    assert.ok(
      page.body.includes(
        '<img class="app-logo" src="https://cdn.hirebot.example/logo.png" alt="Hire &lt;Bot&gt; logo"',
      ),
    );
    assert.ok(!page.body.includes('Owner Olga'), 'the developer name is who');
    const policy = page.headers.get('content-security-policy') ?? '';
    const imgSrc = /img-src ([^;]*)/.exec(policy)?.[1] ?? '';
    assert.deepEqual(
      imgSrc.split(' ').sort(),
      ["'self'", 'data:', 'https://cdn.hirebot.example'].sort(),
    );
    assert.match(policy, /default-src 'self'/);
  });

  it('names who registered the app when it has no developer name', async () => {
    const owner = await newUser('Registered <Rita>');
    const { app } = await apps.createApp({
      ownerEmail: owner.email,
      name: 'Plain app',
      redirectUris: [REDIRECT_URI],
    });
    const { page } = await signedIn(authorizePath(app.client_id), (await newUser()).email);
    assert.ok(page.body.includes('value="allow"'), page.body);
    assert.match(page.body, /Registered by <strong>Registered &lt;Rita&gt;<\/strong>/);
    assert.ok(!page.body.includes('publisher-links'));
    assert.ok(!page.body.includes('<img'));
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /img-src[^;]*https:/);
  });

  it('tells same-named employers apart by id and role on the selection page', async () => {
    const owner = await newUser('Owner');
    const { app } = await apps.createApp({
      ownerEmail: owner.email,
      name: 'Picker',
      redirectUris: [REDIRECT_URI],
    });
    const user = await newUser();
    const admin = (await accounts.createEmployer({ name: 'Acme', memberEmails: [user.email] }))
      .employer;
    const other = (await accounts.createEmployer({ name: 'Acme' })).employer;
    await accounts.addMember({ employerId: other.id, email: user.email, role: 'member' });

    const path = authorizePath(app.client_id, { prompt: 'select_employer' });
    const { browser, page: consent } = await signedIn(path, user.email);
    const allowed = await browser.post('/oauth/v2/authorize/consent', {
      ...hiddenFields(consent.body, '/oauth/v2/authorize/consent'),
      decision: 'allow',
    });
    assert.equal(allowed.status, 303, allowed.body);
    const page = await browser.get(locationOf(allowed));
    assert.match(page.body, /<h1>Choose an employer<\/h1>/);
    for (const [employer, role] of [
      [admin, 'admin'],
      [other, 'member'],
    ] as const) {
      const choice = new RegExp(
        `value="${employer.id}" required>\\s*<label for="employer-\\d">Acme<br>\\s*` +
          `<small class="hint">ID <code>${employer.id}</code> · your role: ${role}</small></label>`,
      );
      assert.match(page.body, choice);
    }
  });
});
