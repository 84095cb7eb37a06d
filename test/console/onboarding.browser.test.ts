import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { buildAssets } from '../../scripts/build-assets.js';
import {
  BROWSER_TEST_TIMEOUT_MS,
  captureBothWidths,
  launchChromium,
  WIDE,
} from '../support/browser.js';
import { createTestDatabase } from '../support/databases.js';
import { startTestService } from '../support/service.js';
import { SmtpInbox } from '../support/smtp-inbox.js';

declare const navigator: any;

const run = promisify(execFile);
const PASSWORD = 'correct horse battery staple';
const EXPLORER_BUNDLE = fileURLToPath(new URL('../../public/built/explorer.js', import.meta.url));
/** Runs a command copied from a page the way a partner would: pasted into bash. */
async function runInShell(command: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run('bash', ['-c', command], {
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
  return stdout;
}

describe('a new partner, from sign-up to a first API call, in Chromium [sqlite]', function () {
  this.timeout(BROWSER_TEST_TIMEOUT_MS);
  let browser: Browser | null = null;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let inbox: SmtpInbox | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let page: Page;

  before(async function () {
    browser = await launchChromium();
    if (!browser) this.skip();
    if (!existsSync('/usr/bin/curl')) {
      console.log('      ! curl is missing: the copied request cannot be run as a partner would');
      this.skip();
    }
    // The explorer's bundle comes from `npm run build`; a run straight from a clone makes it.
    if (!existsSync(EXPLORER_BUNDLE)) await buildAssets();
    inbox = await SmtpInbox.start();
    database = await createTestDatabase('sqlite');
    service = await startTestService(database, {
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'console@example.com' },
    });
    const context = await browser.newContext({ viewport: WIDE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: service.url,
    });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await service?.stop();
    await inbox?.close();
    await database?.dispose();
  });

  it('signs up, verifies by mail, registers an app, calls the API, explores it and reads the reference', async () => {
    const base = service!.url;
    const email = `newcomer-${randomBytes(4).toString('hex')}@example.com`;

    // 1. Sign up; the console asks for the address to be verified.
    await page.goto(`${base}/console/sign-up`);
    await captureBothWidths(page, 'onboarding', 'sign-up');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Name').fill('Nia Newcomer');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your email' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    assert.ok(await page.getByText('Verify your email address').isVisible());
    await captureBothWidths(page, 'onboarding', 'dashboard-unverified');

    // 2. The link from the mail the SMTP server received verifies the address.
    const mail = await inbox!.waitFor(email);
    const link = mail.links.find((candidate) => candidate.startsWith(`${base}/console/`));
    assert.ok(link, `no console link in ${mail.body}`);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Your email address is verified' }).waitFor();
    await captureBothWidths(page, 'onboarding', 'verified');

    // 3. An employer to act for, then the app.
    await page.getByRole('link', { name: 'Employers' }).first().click();
    await page.getByLabel('Employer name').fill('Northwind Hiring');
    await page.getByRole('button', { name: 'Create employer' }).click();
    await page.getByRole('heading', { name: 'Northwind Hiring' }).waitFor();
    const employerId = (await page.locator('#employer-id').innerText()).trim();
    await captureBothWidths(page, 'onboarding', 'employer');

    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    assert.equal(await page.getByText('Verify your email address').count(), 0);
    await page.getByRole('link', { name: 'Register an app' }).click();
    await captureBothWidths(page, 'onboarding', 'register');
    await page.getByLabel('App name').fill('Northwind Scheduler');
    await page.getByLabel(/^Confidential/).check();
    await page.getByLabel('Redirect URL 1').fill('https://scheduler.example.com/oauth/callback');
    await page.getByRole('button', { name: 'Register app' }).click();
    await page.locator('#client-secret').waitFor();
    const clientId = (await page.locator('#client-id').innerText()).trim();
    const secret = (await page.locator('#client-secret').innerText()).trim();
    await captureBothWidths(page, 'onboarding', 'credentials');

    // 4. The Overview's ready client_credentials request, copied with its button and run in bash.
    await page.getByRole('link', { name: 'Overview' }).click();
    const ready = page
      .locator('pre.ready-request code', { hasText: 'grant_type=client_credentials' })
      .first();
    await ready.waitFor();
    await captureBothWidths(page, 'onboarding', 'overview');
    const readyId = await ready.getAttribute('id');
    assert.ok(readyId, 'the ready request has an id for its copy button');
    await page.locator(`button.copy-button[data-copy-from="${readyId}"]`).click();
    const copied = (await page.evaluate(() => navigator.clipboard.readText())) as string;
    assert.equal(copied.trim(), (await ready.innerText()).trim());
    assert.ok(copied.includes(clientId) && copied.includes(employerId), copied);
    assert.ok(!copied.includes(secret), 'the page never prints the secret');

    const answer = JSON.parse(await runInShell(copied, { CLIENT_SECRET: secret }));
    assert.equal(answer.token_type, 'Bearer');
    assert.equal(answer.scope, 'employer_access');
    assert.match(answer.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const appinfo = page.locator('pre.ready-request code', { hasText: '/v2/api/appinfo' });
    const employers = JSON.parse(
      await runInShell(await appinfo.innerText(), { ACCESS_TOKEN: answer.access_token }),
    );
    assert.deepEqual(employers, { employers: [{ id: employerId, name: 'Northwind Hiring' }] });

    // 5. The explorer, for this app and employer, runs the saved create example.
    await page.getByRole('link', { name: 'API explorer' }).click();
    await page.getByLabel('App').selectOption({ label: 'Northwind Scheduler' });
    await page.getByLabel('Employer').selectOption({ label: 'Northwind Hiring' });
    await captureBothWidths(page, 'onboarding', 'explorer-picker');
    await page.getByRole('button', { name: 'Open the explorer' }).click();
    await page
      .locator('.graphiql-query-editor')
      .getByText('createVirtualInterviewEvent')
      .first()
      .waitFor();
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    await response.getByText('"interviewerLobbyUrl"').waitFor();
    assert.match(await response.innerText(), /"id": "[0-9a-f-]{36}"/);
    await captureBothWidths(page, 'onboarding', 'explorer-created');

    // 6. The API reference.
    await page.goto(`${base}/docs`);
    await page.getByRole('heading', { name: 'Exchange a grant for tokens' }).waitFor();
    await captureBothWidths(page, 'onboarding', 'docs');
  });
});
