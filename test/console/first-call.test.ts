import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';
import {
  authorizationCode,
  ConsoleClient as Browser,
  formCsrfToken,
  locationOf,
  unescapeHtml,
  type Form,
} from '../support/console-client.js';

const run = promisify(execFile);
const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'https://partner.example.com/callback?tenant=a%20b&x=1';

let sequence = 0;
function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${sequence}-${Date.now()}@example.com`;
}

async function signedInBrowser(baseUrl: string): Promise<Browser> {
  const browser = new Browser(baseUrl);
  await browser.signUp(uniqueEmail('first-call'), PASSWORD, 'Pat Partner');
  return browser;
}

async function registerApp(browser: Browser, fields: Form = {}) {
  const response = await browser.submit('/console/apps/new', '/console/apps/new', {
    name: 'Scheduler',
    client_type: 'confidential',
    redirect_uri_1: REDIRECT,
    grant_types: ['', 'authorization_code', 'refresh_token', 'client_credentials'],
    ...fields,
  });
  assert.equal(response.status, 303, response.body);
  const credentials = await browser.get(locationOf(response));
  const clientId = unescapeHtml(/<code id="client-id">([^<]*)<\/code>/.exec(credentials.body)![1]!);
  const secret = /<code id="client-secret" class="secret">([^<]*)<\/code>/.exec(credentials.body);
  return {
    clientId,
    secret: secret ? unescapeHtml(secret[1]!) : '',
    overview: `/console/apps/${clientId}`,
  };
}

/** The text of the element with this id, as copy.js would copy it. */
function textOf(html: string, id: string): string {
  const match = new RegExp(`<code id="${id}">([\\s\\S]*?)</code>`).exec(html);
  assert.ok(match, `no element ${id} on the page`);
  return unescapeHtml(match[1]!.replaceAll('&#92;', '\\'));
}

/** Runs a ready request as a user would paste it into bash, with its shell variables set. */
async function runInShell(command: string, variables: Record<string, string>): Promise<unknown> {
  const { stdout } = await run('bash', ['-c', command], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...variables },
  });
  return JSON.parse(stdout);
}

/** Follows an authorization URL as the signed-in console user: allow, pick the first employer. */
function authorizationCodeOf(browser: Browser, authorizeUrl: string): Promise<string> {
  const url = new URL(authorizeUrl);
  return authorizationCode(browser, url.pathname + url.search);
}

describeEachDialect("the Overview's first call", (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '1000' } });
  });
  after(async () => {
    await service?.stop();
  });

  async function createEmployer(browser: Browser, name: string): Promise<void> {
    const created = await browser.submit('/console/employers', '/console/employers', { name });
    assert.equal(created.status, 303, created.body);
  }

  it('shows the addresses discovery advertises', async () => {
    const browser = await signedInBrowser(service.url);
    const { overview } = await registerApp(browser);
    const page = await browser.get(overview);
    assert.equal(page.status, 200, page.body);
    const discovery = (await (
      await fetch(`${service.url}/.well-known/openid-configuration`)
    ).json()) as Record<string, string>;
    assert.equal(textOf(page.body, 'endpoint-issuer'), discovery.issuer);
    assert.equal(
      textOf(page.body, 'endpoint-discovery'),
      `${discovery.issuer}/.well-known/openid-configuration`,
    );
    assert.equal(textOf(page.body, 'endpoint-authorize'), discovery.authorization_endpoint);
    assert.equal(textOf(page.body, 'endpoint-token'), discovery.token_endpoint);
    assert.equal(textOf(page.body, 'endpoint-userinfo'), discovery.userinfo_endpoint);
    assert.equal(textOf(page.body, 'endpoint-appinfo'), `${service.url}/v2/api/appinfo`);
    assert.equal(textOf(page.body, 'endpoint-graphql'), `${service.url}/graphql`);
    for (const id of ['endpoint-issuer', 'first-call-token', 'first-call-create']) {
      assert.ok(
        page.body.includes(
          `<button type="button" class="copy-button" data-copy-from="${id}" hidden>Copy</button>`,
        ),
        `copy button for ${id}`,
      );
    }
  });

  it('runs: client credentials for the listed employer, appinfo, create and find', async () => {
    const browser = await signedInBrowser(service.url);
    await createEmployer(browser, 'Acme <Hiring>');
    const { overview, clientId, secret } = await registerApp(browser);
    const page = await browser.get(overview);
    assert.ok(page.body.includes('Acme &lt;Hiring&gt;'));
    const employerId = textOf(page.body, 'employer-id-1');
    assert.match(page.body, /<td>admin<\/td>/);

    const tokenRequest = textOf(page.body, 'first-call-token');
    assert.ok(tokenRequest.includes(`-u "${clientId}:$CLIENT_SECRET"`), tokenRequest);
    assert.ok(tokenRequest.includes(`employer=${employerId}`), tokenRequest);
    assert.ok(!page.body.includes(secret), 'the secret is never printed');

    const token = (await runInShell(tokenRequest, { CLIENT_SECRET: secret })) as {
      access_token: string;
      scope: string;
    };
    assert.ok(token.access_token, JSON.stringify(token));
    assert.equal(token.scope, 'employer_access');
    const variables = { ACCESS_TOKEN: token.access_token };

    const appinfo = (await runInShell(textOf(page.body, 'first-call-appinfo'), variables)) as {
      employers?: Array<{ id: string }>;
    };
    assert.ok(appinfo.employers?.some((employer) => employer.id === employerId));

    const created = (await runInShell(textOf(page.body, 'first-call-create'), variables)) as {
      data?: { createVirtualInterviewEvent: { event: { id: string } } };
      errors?: unknown;
    };
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    const eventId = created.data!.createVirtualInterviewEvent.event.id;
    const found = (await runInShell(textOf(page.body, 'first-call-find'), variables)) as {
      data?: { findVirtualInterviewEvents: { edges: Array<{ node: { id: string } }> } };
      errors?: unknown;
    };
    assert.equal(found.errors, undefined, JSON.stringify(found.errors));
    assert.ok(found.data!.findVirtualInterviewEvents.edges.some(({ node }) => node.id === eventId));
  });

  it('makes a fresh PKCE pair per view, and its code exchange works', async () => {
    const browser = await signedInBrowser(service.url);
    await createEmployer(browser, 'Initech');
    const { overview, secret } = await registerApp(browser);
    const first = await browser.get(overview);
    const again = await browser.get(overview);
    const verifier = textOf(first.body, 'code-verifier-1');
    assert.match(verifier, /^[A-Za-z0-9_-]{43,128}$/);
    assert.notEqual(textOf(again.body, 'code-verifier-1'), verifier);
    const challenge = textOf(first.body, 'code-challenge-1');
    assert.equal(challenge, createHash('sha256').update(verifier).digest('base64url'));

    const authorizeUrl = new URL(textOf(first.body, 'authorize-url-1'));
    assert.equal(authorizeUrl.searchParams.get('redirect_uri'), REDIRECT);
    assert.equal(authorizeUrl.searchParams.get('response_type'), 'code');
    assert.equal(authorizeUrl.searchParams.get('code_challenge'), challenge);
    assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorizeUrl.searchParams.get('state'));

    const code = await authorizationCodeOf(browser, authorizeUrl.href);
    const exchange = textOf(first.body, 'code-exchange-1');
    assert.ok(exchange.includes(`code_verifier=${verifier}`));
    const tokens = (await runInShell(exchange, { CLIENT_SECRET: secret, CODE: code })) as {
      access_token?: string;
      id_token?: string;
      refresh_token?: string;
    };
    assert.ok(
      tokens.access_token && tokens.id_token && tokens.refresh_token,
      JSON.stringify(tokens),
    );
  });

  it('gives a public app the code flow without a secret, and no client credentials', async () => {
    const browser = await signedInBrowser(service.url);
    const { overview, clientId } = await registerApp(browser, {
      client_type: 'public',
      grant_types: ['', 'authorization_code'],
    });
    const page = await browser.get(overview);
    assert.ok(!page.body.includes('id="first-call-token"'));
    assert.ok(!page.body.includes('id="first-call-appinfo"'));
    assert.ok(!page.body.includes('CLIENT_SECRET'));
    const exchange = textOf(page.body, 'code-exchange-1');
    assert.ok(exchange.includes(`client_id=${clientId}`), exchange);
    assert.ok(!exchange.includes(' -u '), exchange);

    const code = await authorizationCodeOf(browser, textOf(page.body, 'authorize-url-1'));
    const tokens = (await runInShell(exchange, { CODE: code })) as { access_token?: string };
    assert.ok(tokens.access_token, JSON.stringify(tokens));
  });

  it('says where the employer id goes when the owner has no employer', async () => {
    const browser = await signedInBrowser(service.url);
    const { overview } = await registerApp(browser, {
      grant_types: ['', 'client_credentials'],
    });
    const page = await browser.get(overview);
    assert.match(page.body, /You do not belong to any employer yet/);
    assert.match(page.body, /<a href="\/console\/employers">Create an employer<\/a>/);
    assert.ok(textOf(page.body, 'first-call-token').includes('"employer=$EMPLOYER_ID"'));
    assert.ok(!page.body.includes('id="authorize-url-1"'), 'no code flow without the grant');
  });

  it('leaves the page width alone: every ready request is a pre.ready-request', async () => {
    const browser = await signedInBrowser(service.url);
    const { overview } = await registerApp(browser);
    const page = await browser.get(overview);
    const pres = [...page.body.matchAll(/<pre([^>]*)>/g)].map((match) => match[1]);
    assert.ok(pres.length >= 5);
    for (const attributes of pres) assert.equal(attributes, ' class="ready-request"');
    assert.ok(formCsrfToken(page.body, `${overview}/overview`));
  });
});
