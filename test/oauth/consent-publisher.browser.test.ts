import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { BROWSER_TEST_TIMEOUT_MS, captureBothWidths, launchChromium } from '../support/browser.js';
import { testAccounts } from '../support/compose.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startTestService } from '../support/service.js';

declare const document: any;

const PASSWORD = 'correct horse battery staple';
const REDIRECT_URI = 'https://partner.example.com/callback';
const LOGO_URL = 'https://cdn.partner.example/logo.png';
/** A 1×1 PNG, served for the logo's address inside the browser. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('consent and employer choice in Chromium [sqlite]', function () {
  this.timeout(BROWSER_TEST_TIMEOUT_MS);
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let browser: Browser | undefined;
  let clientId: string;
  let email: string;
  let employerIds: string[];

  before(async function () {
    const launched = await launchChromium();
    if (!launched) this.skip();
    browser = launched;
    database = await createTestDatabase('sqlite');
    service = await startTestService(database);
    const { accounts, apps } = testAccounts(database.db);
    const owner = await accounts.createUser({
      email: `owner-${randomBytes(4).toString('hex')}@example.com`,
      password: PASSWORD,
      name: 'Owner',
    });
    email = `user-${randomBytes(4).toString('hex')}@example.com`;
    await accounts.createUser({ email, password: PASSWORD, name: 'User' });
    const first = await accounts.createEmployer({ name: 'Acme', memberEmails: [email] });
    const second = await accounts.createEmployer({ name: 'Acme' });
    await accounts.addMember({ employerId: second.employer.id, email, role: 'member' });
    employerIds = [first.employer.id, second.employer.id];
    const created = await apps.createApp({
      ownerEmail: owner.email,
      name: 'Interview Scheduler',
      redirectUris: [REDIRECT_URI],
      publisher: {
        developerName: 'Partner Labs',
        homepageUrl: 'https://partner.example/',
        privacyPolicyUrl: 'https://partner.example/privacy',
        logoUrl: LOGO_URL,
      },
    });
    clientId = created.app.client_id;
  });

  after(async () => {
    await browser?.close();
    await service?.stop();
    await database?.dispose();
  });

  it('shows the logo under the page policy, who publishes the app, and same-named employers apart', async () => {
    const context = await browser!.newContext();
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.route(LOGO_URL, (route) =>
        route.fulfill({ status: 200, contentType: 'image/png', body: PNG }),
      );
      await page.route(`${REDIRECT_URI}**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the app' }),
      );
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid employer_access',
        state: 's',
        prompt: 'select_employer',
        code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
        code_challenge_method: 'S256',
      });
      await page.goto(`${service!.url}/oauth/v2/authorize?${query}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('button', { name: 'Allow' }).waitFor();
      const logo = page.getByRole('img', { name: 'Interview Scheduler logo' });
      await logo.waitFor();
      await page.waitForFunction(() => document.querySelector('img.app-logo')?.complete === true);
      assert.equal(await logo.evaluate((img: any) => img.naturalWidth as number), 1);
      assert.ok(await page.getByText('by Partner Labs').isVisible());
      assert.equal(
        await page.getByRole('link', { name: 'Privacy policy' }).getAttribute('href'),
        'https://partner.example/privacy',
      );
      assert.equal(
        await page.getByRole('link', { name: 'Interview Scheduler homepage' }).getAttribute('rel'),
        'noopener noreferrer',
      );
      await captureBothWidths(page, 'authorize', 'consent');
      await page.getByRole('button', { name: 'Allow' }).click();

      await page.getByRole('heading', { name: 'Choose an employer' }).waitFor();
      await captureBothWidths(page, 'authorize', 'select-employer');
      for (const id of employerIds) {
        assert.ok(
          await page.getByRole('radio', { name: new RegExp(`Acme\\s+ID ${id}`) }).isVisible(),
        );
      }
      await page.getByRole('radio', { name: new RegExp(employerIds[1]!) }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
      assert.equal(new URL(page.url()).searchParams.get('employer'), employerIds[1]);
      assert.deepEqual(violations, []);
    } finally {
      await context.close();
    }
  });
});
