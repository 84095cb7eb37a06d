import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { EmployerRow } from '../../src/db/rows.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startTestService } from '../support/service.js';
import { testAccounts } from '../support/compose.js';

const PASSWORD = 'correct horse battery staple';
const STATE = 'return to /jobs?id=7 & tab=2 ✓';

/** The partner app's side: a page at the redirect_uri that records what arrives. */
async function startClientApp(): Promise<{ server: Server; redirectUri: string; hits: URL[] }> {
  const hits: URL[] = [];
  const server = createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://client.invalid'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><title>Partner app</title><h1>Back at the app</h1></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, redirectUri: `http://127.0.0.1:${port}/callback`, hits };
}

describe('authorization pages in Chromium [sqlite]', function () {
  this.timeout(BROWSER_TEST_TIMEOUT_MS);
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let clientApp: Awaited<ReturnType<typeof startClientApp>> | undefined;
  let browser: Browser | undefined;
  let clientId: string;
  let email: string;
  let employers: EmployerRow[];

  before(async function () {
    const launched = await launchChromium();
    if (!launched) this.skip();
    browser = launched;
    database = await createTestDatabase('sqlite');
    service = await startTestService(database);
    clientApp = await startClientApp();

    const { accounts, apps } = testAccounts(database.db);
    email = `grace-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.createUser({ email, password: PASSWORD, name: 'Grace' });
    employers = [];
    for (const name of ['Acme Hiring', 'Globex Careers']) {
      employers.push((await accounts.createEmployer({ name, memberEmails: [email] })).employer);
    }
    const created = await apps.createApp({
      ownerEmail: email,
      name: 'Interview Scheduler',
      redirectUris: [clientApp.redirectUri],
    });
    clientId = created.app.client_id;
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) =>
      clientApp ? clientApp.server.close(() => resolve()) : resolve(),
    );
    await service?.stop();
    await database?.dispose();
  });

  function authorizeUrl(scope = 'openid email offline_access employer_access'): string {
    const challenge = createHash('sha256')
      .update(randomBytes(32).toString('base64url'))
      .digest('base64url');
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: clientApp!.redirectUri,
      response_type: 'code',
      scope,
      state: STATE,
      prompt: 'select_employer',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${service!.url}/oauth/v2/authorize?${query}`;
  }

  /** Waits for the browser to land on the client's redirect_uri and returns its query. */
  async function arrivedAtClient(page: Page): Promise<URLSearchParams> {
    await page.waitForURL((url) => url.href.startsWith(`${clientApp!.redirectUri}?`));
    await page.getByRole('heading', { name: 'Back at the app' }).waitFor();
    const landed = new URL(page.url());
    assert.ok(clientApp!.hits.some((hit) => hit.search === landed.search));
    return landed.searchParams;
  }

  async function withPage(work: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser!.newContext();
    try {
      const page = await context.newPage();
      await work(page);
    } finally {
      await context.close();
    }
  }

  it('signs in, consents and picks an employer by label', async () => {
    await withPage(async (page) => {
      await page.goto(authorizeUrl());
      assert.equal(await page.title(), 'Sign in · Hiring partner');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page
        .getByRole('heading', { name: 'Interview Scheduler wants to access your account' })
        .waitFor();
      await page.getByRole('button', { name: 'Allow' }).click();

      await page.getByRole('heading', { name: 'Choose an employer' }).waitFor();
      assert.equal(await page.getByRole('radio').count(), 3);
      const chosen = employers.find((employer) => employer.name === 'Globex Careers')!;
      await page.getByRole('radio', { name: 'Globex Careers' }).check();
      await page.getByRole('button', { name: 'Continue' }).click();

      const result = await arrivedAtClient(page);
      assert.match(result.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.equal(result.get('iss'), service!.config.authUrl);
      assert.equal(result.get('state'), STATE);
      assert.equal(result.get('employer'), chosen.id);
    });
  });

  it('works with the keyboard alone', async () => {
    await withPage(async (page) => {
      // A scope set this user has not consented to yet, so every page appears.
      await page.goto(authorizeUrl('email employer_access'));
      // The email field takes focus when the page opens (autofocus); wait for it before typing.
      await page.locator('#email:focus').waitFor();
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');

      await page
        .getByRole('heading', { name: 'Interview Scheduler wants to access your account' })
        .waitFor();
      await page.keyboard.press('Tab');
      assert.equal(await page.locator(':focus').textContent(), 'Allow');
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { name: 'Choose an employer' }).waitFor();
      await page.keyboard.press('Tab');
      const acme = employers.find((employer) => employer.name === 'Acme Hiring')!;
      assert.equal(await page.locator(':focus').getAttribute('value'), acme.id);
      await page.keyboard.press('ArrowUp'); // radio groups wrap: the last choice
      const none = page.getByLabel('Continue without an employer');
      assert.equal(await none.isChecked(), true);
      await page.keyboard.press('Tab');
      const focused = await page.locator(':focus').textContent();
      assert.equal(focused, 'Continue');
      await page.keyboard.press('Enter');

      const result = await arrivedAtClient(page);
      assert.ok(result.get('code'));
      assert.equal(result.get('iss'), service!.config.authUrl);
      assert.equal(result.get('state'), STATE);
      assert.equal(result.has('employer'), false);
    });
  });

  it('shows a wrong password as an alert and keeps the email', async () => {
    await withPage(async (page) => {
      await page.goto(authorizeUrl());
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match((await alert.textContent()) ?? '', /Email or password is incorrect/);
      assert.equal(await page.getByLabel('Email').inputValue(), email);
    });
  });
});
