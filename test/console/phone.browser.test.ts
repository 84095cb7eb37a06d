import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { browserSession } from '../support/browser.js';

declare const document: any;
declare const navigator: any;
declare function getComputedStyle(element: any): any;

const PASSWORD = 'correct horse battery staple';
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const LONG_NAME =
  'Northwind Talent Acquisition Interview Scheduling Synchronisation Service ' +
  'Integration-Connector-For-Applicant-Tracking-Systems-Without-Spaces';
/** Five redirect URLs far wider than a phone, one of them without a single break opportunity. */
const LONG_URLS = [
  `https://interview-scheduling-callbacks.partner-integrations.northwind-hiring.example.com/oauth/v2/callback/${'a'.repeat(80)}`,
  'https://partner.example.com/oauth/callback?tenant=northwind-talent-acquisition-international&region=europe-west',
  'https://staging.interview-scheduling-callbacks.partner-integrations.example.com/oauth/v2/authorization/callback/staging',
  'http://localhost:8080/a/very/long/path/to/the/local/development/callback/of/the/partner/application/handler',
  `https://${'x'.repeat(60)}.example.com/${'y'.repeat(90)}`,
];

/** How wide the page is laid out; wider than the window means it scrolls sideways. */
function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth as number);
}

/**
 * Every page of the console on a 375 px wide phone: nothing is wider than the screen, whatever
 * the data (a long app name, five long redirect URLs, ids, activity), and every tab of an app
 * can be clicked; plus the Copy buttons, and a look at a desktop width.
 */
describe('partner console on a phone in Chromium [sqlite]', function () {
  const session = browserSession('phone');
  const email = `phone-${randomBytes(4).toString('hex')}@example.com`;
  const checked: string[] = [];
  let appBase = '';

  /** Asserts the page shown now fits `width`, and keeps a screenshot of it. */
  async function fits(name: string, width = PHONE.width): Promise<void> {
    const { page } = session;
    const laidOut = await pageWidth(page);
    assert.ok(laidOut <= width, `${name} (${page.url()}) is ${laidOut}px wide at ${width}px`);
    checked.push(name);
    await session.screenshot(`${width}-${name}`);
  }

  async function visit(path: string, name: string): Promise<void> {
    const response = await session.page.goto(`${session.url}${path}`);
    assert.ok(response && response.status() < 400, `${path} answered ${response?.status()}`);
    await fits(name);
  }

  /** Clicks every tab of the app's tab bar, as a finger would: visible, on screen, not covered. */
  async function clickEveryTab(): Promise<void> {
    const { page } = session;
    const tabs = page.getByRole('navigation', { name: 'App sections' }).getByRole('link');
    const count = await tabs.count();
    assert.equal(count, 9);
    for (let index = 0; index < count; index++) {
      const tab = tabs.nth(index);
      const href = (await tab.getAttribute('href'))!;
      const box = (await tab.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `tab ${href} is on screen`);
      await tab.click();
      await page.waitForURL(`${session.url}${href}`);
      assert.equal(
        await page
          .getByRole('navigation', { name: 'App sections' })
          .locator('[aria-current="page"]')
          .getAttribute('href'),
        href,
      );
    }
  }

  before(async function () {
    if (!session.page) this.skip();
    await session.page.setViewportSize(PHONE);
    await session.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.url });
  });

  it('fits the pages before sign-in', async () => {
    await visit('/console/sign-in', 'sign-in');
    await visit('/console/sign-up', 'sign-up');
    await visit('/console/forgot-password', 'forgot-password');
  });

  it('fits the dashboard, the new-app form and every tab of an app with long values', async () => {
    const { page } = session;
    await visit('/console/sign-up', 'sign-up');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Name').fill('Pat Phone');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your email' }).waitFor();
    await fits('sign-in-check-email');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    await fits('dashboard-empty');

    await page.getByRole('link', { name: 'Register an app' }).click();
    await page.getByRole('heading', { name: 'Register an app' }).waitFor();
    await fits('new-app');
    await page.getByLabel('App name').fill(LONG_NAME);
    await page.getByLabel('Description').fill('A description '.repeat(20));
    for (const [index, uri] of LONG_URLS.entries()) {
      await page.getByLabel(`Redirect URL ${index + 1}`, { exact: true }).fill(uri);
    }
    await page.getByRole('button', { name: 'Register app' }).click();
    await page.locator('#client-secret').waitFor();
    appBase = new URL(page.url()).pathname.replace(/\/credentials$/, '');
    await fits('credentials-new-secret');

    const clientId = (await page.locator('#client-id').innerText()).trim();
    const secret = (await page.locator('#client-secret').innerText()).trim();
    await page.locator('button.copy-button[data-copy-from="client-id"]').click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), clientId);
    await page.locator('button.copy-button[data-copy-from="client-secret"]').click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);

    await page.reload();
    assert.match(await page.locator('#client-secret').innerText(), /^•+$/);
    await fits('credentials-masked');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByRole('status').filter({ hasText: 'Secret revealed' }).waitFor();
    assert.equal((await page.locator('#client-secret').innerText()).trim(), secret);
    await fits('credentials-revealed');

    await visit(appBase, 'overview');
    await clickEveryTab();
    // The APIs section's switches, tapped as a finger would.
    await visit(appBase, 'overview');
    const webhooks = page.getByRole('switch', { name: 'Webhook management API' });
    assert.equal(await webhooks.getAttribute('aria-checked'), 'true');
    await webhooks.click();
    await page.getByRole('status').filter({ hasText: 'API disabled' }).waitFor();
    assert.equal(
      await page
        .getByRole('switch', { name: 'Webhook management API' })
        .getAttribute('aria-checked'),
      'false',
    );
    await fits('overview-api-disabled');
    await page.getByRole('switch', { name: 'Webhook management API' }).click();
    await page.getByRole('status').filter({ hasText: 'API enabled' }).waitFor();
    await visit(`${appBase}/redirect-urls`, 'redirect-urls');
    await clickEveryTab();
    await visit(`${appBase}/redirect-urls/5/remove`, 'redirect-url-remove');
    await page.getByRole('button', { name: 'Remove Redirect URL 5' }).click();
    await page.getByRole('status').filter({ hasText: 'Redirect URL removed' }).waitFor();
    await fits('redirect-urls-after-removal');

    await visit(`${appBase}/credentials/rotate`, 'rotate-confirm');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('status').filter({ hasText: 'Secret rotated' }).waitFor();
    await fits('credentials-rotated');

    await visit(`${appBase}/activity`, 'activity');
    await clickEveryTab();
    await visit(`${appBase}/delete`, 'delete-confirm');
    await visit('/console', 'dashboard');
  });

  it('fits the employer pages, and copies an employer id', async () => {
    const { page } = session;
    await visit('/console/employers', 'employers-empty');
    await page.getByLabel('Employer name').fill(LONG_NAME);
    await page.getByRole('button', { name: 'Create employer' }).click();
    await page.getByRole('status').filter({ hasText: 'Employer created' }).waitFor();
    await fits('employer-detail');
    const detail = page.url();
    const employerId = (await page.locator('#employer-id').innerText()).trim();
    await page.locator('button.copy-button[data-copy-from="employer-id"]').click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), employerId);
    await visit('/console/employers', 'employers');
    await page.locator(`button.copy-button[data-copy-from="employer-id-${employerId}"]`).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), employerId);

    // Without JavaScript the buttons stay hidden and the id can still be selected by hand.
    const context = page.context();
    const noScript = await context.browser()!.newContext({ javaScriptEnabled: false });
    try {
      await noScript.addCookies(await context.cookies());
      const plain = await noScript.newPage();
      await plain.setViewportSize(PHONE);
      await plain.goto(detail);
      assert.ok(await plain.locator('#employer-id').isVisible());
      assert.ok(await plain.locator('button.copy-button').first().isHidden());
      assert.notEqual(
        await plain
          .locator('#employer-id')
          .evaluate((code: any) => getComputedStyle(code).userSelect),
        'none',
      );
    } finally {
      await noScript.close();
    }
  });

  it('fits the explorer, the outbox and the account pages', async () => {
    const { page } = session;
    await visit('/console/explorer', 'explorer');
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.waitForURL(/\/console\/email-verification\/sent$/);
    await fits('verification-sent');
    await visit('/console/dev/outbox', 'outbox');
    const verify = await page.locator('a[href*="/console/verify-email/"]').first().innerText();
    await visit(new URL(verify).pathname, 'email-verified');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await visit('/console/forgot-password', 'forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await fits('reset-link-sent');
    await visit('/console/dev/outbox', 'outbox-signed-out');
    const reset = await page.locator('a[href*="/console/reset-password/"]').first().innerText();
    await visit(new URL(reset).pathname, 'reset-password');
    await page.getByLabel('New password').fill(`${PASSWORD} again`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(/\/console\/password-changed$/);
    await fits('password-changed');
  });

  it('fits a desktop window too', async () => {
    const { page } = session;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${session.url}/console/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(`${PASSWORD} again`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    for (const [path, name] of [
      ['/console', 'dashboard'],
      [`${appBase}/credentials`, 'credentials'],
      [`${appBase}/redirect-urls`, 'redirect-urls'],
      [`${appBase}/activity`, 'activity'],
      ['/console/employers', 'employers'],
    ] as const) {
      await page.goto(`${session.url}${path}`);
      await fits(name, DESKTOP.width);
    }
    // On a desktop the tables stay tables, and a short value stays on one line.
    assert.ok(await page.getByRole('columnheader', { name: 'Employer ID' }).isVisible());
    const roleLines = await page.getByRole('cell', { name: 'Admin' }).evaluate((cell: any) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return range.getClientRects().length as number;
    });
    assert.equal(roleLines, 1, 'the role is not broken into pieces');
  });
});
