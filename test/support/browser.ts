import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { volume } from './concurrency.js';
import { createTestDatabase } from './databases.js';
import { startTestService } from './service.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * How long a browser test waits for any one thing (a page, an element, a video that plays, a
 * launch): generous, for the README's two-core machine busy with the rest of the suite, yet
 * finite, so that a step that never happens fails with Playwright's own message. It is the
 * default of every context of launchChromium's browser; BROWSER_WAIT_MS overrides it.
 */
export const BROWSER_WAIT_MS = volume('BROWSER_WAIT_MS', 60_000);

/** Mocha's timeout for a browser test or hook: several slow waits in a row, still finite. */
export const BROWSER_TEST_TIMEOUT_MS = 5 * BROWSER_WAIT_MS;

/**
 * Debian's Chromium, headless; tests never download a browser. Null when it is not installed.
 * Every context it opens (and so every page) waits BROWSER_WAIT_MS unless told otherwise.
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser | null> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.log(
      `      ! ${CHROMIUM_PATH} is missing (apt-get install chromium): skipping browser tests`,
    );
    return null;
  }
  const browser = await chromium.launch({
    timeout: BROWSER_WAIT_MS,
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  // browser.newPage() opens its context through newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(BROWSER_WAIT_MS);
    return context;
  };
  return browser;
}

/**
 * For a suite whose body is no mocha function (describeEachDialect): its tests get
 * BROWSER_TEST_TIMEOUT_MS. (A `describe(…, function () { this.timeout(…) })` needs no help.)
 */
export function allowBrowserTestTime(): void {
  beforeEach(function () {
    this.currentTest?.timeout(BROWSER_TEST_TIMEOUT_MS);
  });
}

/**
 * Answers navigations to a client's redirect URI inside the browser and resolves with the URL
 * the authorization server sent the user to, so no client web server is needed.
 */
export function captureRedirect(page: Page, redirectUri: string): Promise<URL> {
  return new Promise((resolve) => {
    void page.route(`${redirectUri}**`, async (route) => {
      resolve(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'signed in' });
    });
  });
}

/**
 * Plays the user: signs in, then answers whichever page comes next (consent, employer
 * selection) until the browser reaches the client's redirect URI. A remembered consent simply
 * skips its page.
 */
export async function completeAuthorization(
  page: Page,
  redirected: Promise<URL>,
  options: { email: string; password: string; employerName?: string | null },
): Promise<URL> {
  await page.getByLabel('Email').fill(options.email);
  await page.getByLabel('Password').fill(options.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const allow = page.getByRole('button', { name: 'Allow' });
  const choose = page.getByRole('button', { name: 'Continue' });
  for (;;) {
    const next = await Promise.race([
      redirected.then((url) => ({ done: url })),
      allow
        .or(choose)
        .first()
        .waitFor()
        .then(() => ({ done: null })),
    ]);
    if (next.done) return next.done;
    if (await allow.isVisible()) {
      await allow.click();
      continue;
    }
    if (options.employerName === null || options.employerName === undefined) {
      await page.getByLabel('Continue without an employer').check();
    } else {
      await page.getByRole('radio', { name: options.employerName }).check();
    }
    await choose.click();
    return redirected;
  }
}

export const ARTIFACTS_DIR = fileURLToPath(new URL('../artifacts/', import.meta.url));

export interface BrowserSession {
  page: Page;
  /** Base URL of the service the page talks to. */
  url: string;
  /** Saves a full-page screenshot to test/artifacts/<prefix>-<name>.png for reviewers. */
  screenshot(name: string): Promise<void>;
}

/**
 * Registers mocha hooks that start the real service on a fresh SQLite database and a Chromium
 * page for it (skipping the suite when Chromium is missing), and tear both down afterwards.
 */
export function browserSession(
  artifactPrefix: string,
  env: Record<string, string> = {},
): BrowserSession {
  let browser: Browser | null = null;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  const session = {
    screenshot: (name: string) =>
      session.page.screenshot({
        path: `${ARTIFACTS_DIR}${artifactPrefix}-${name}.png`,
        fullPage: true,
      }) as Promise<unknown> as Promise<void>,
  } as BrowserSession;
  allowBrowserTestTime();
  before(async function () {
    this.timeout(BROWSER_TEST_TIMEOUT_MS);
    browser = await launchChromium();
    if (!browser) this.skip();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    database = await createTestDatabase('sqlite');
    service = await startTestService(database, { env });
    session.url = service.url;
    session.page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
    await database?.dispose();
  });
  return session;
}

declare const document: any;
declare const requestAnimationFrame: any;

export const WIDE = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

/**
 * Saves the current page at 1280 px and at 375 px (test/artifacts/<prefix>-<name>-<width>.png)
 * and checks that at 375 px nothing makes the page wider than the phone. Leaves it at 1280 px.
 */
export async function captureBothWidths(page: Page, prefix: string, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: `${ARTIFACTS_DIR}${prefix}-${name}-1280.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  // Two frames, so layout settles after the resize before it is measured.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  const width = await page.evaluate(() => document.documentElement.scrollWidth as number);
  assert.ok(width <= PHONE.width, `${name} is ${width} px wide at ${PHONE.width} px`);
  await page.screenshot({ path: `${ARTIFACTS_DIR}${prefix}-${name}-375.png`, fullPage: true });
  await page.setViewportSize(WIDE);
}
