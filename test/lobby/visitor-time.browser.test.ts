import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { Principal } from '../../src/oauth/principal.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { interviewLandingPageUrl } } }`;

/** The landing page shows the visitor's own time with script on, and stays complete without it. */
describe('the landing page in the visitor’s time zone [sqlite]', function () {
  this.timeout(BROWSER_TEST_TIMEOUT_MS);
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let browser: Browser | null = null;
  let landingUrl: string;
  let startAt: number;

  before(async function () {
    browser = await launchChromium();
    if (!browser) this.skip();
    database = await createTestDatabase('sqlite');
    const tenant = await insertTenant(database.db, 'visitor-time');
    const principal: Principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'c',
      jti: 'j',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database, { authenticate: async () => principal });
    // 15:00 UTC the day after tomorrow: between 24 and 48 hours ahead at any time of day.
    const start = new Date(Date.now() + 48 * 3_600_000);
    start.setUTCHours(15, 0, 0, 0);
    startAt = start.getTime();
    const { body } = await postGraphQL(service.url, 'any', {
      query: CREATE,
      variables: {
        input: {
          title: 'Visitor time check',
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + 3_600_000).toISOString(),
          timezone: 'America/New_York',
          interviewers: [],
          requestMetadata: { atsName: 'ATS' },
        },
      },
    });
    landingUrl = body.data.createVirtualInterviewEvent.event.interviewLandingPageUrl;
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
    await database?.dispose();
  });

  it('adds the time in the visitor’s zone when script runs', async () => {
    const context = await browser!.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    try {
      const page = await context.newPage();
      await page.goto(landingUrl);
      const row = page.locator('[data-visitor-time]');
      await row.waitFor({ state: 'visible' });
      const text = await row.locator('dd').innerText();
      assert.match(text, /, Japan Standard Time \(Asia\/Tokyo\)$/);
      assert.match(text, /00:00/, '15:00 UTC is midnight in Tokyo');
    } finally {
      await context.close();
    }
  });

  it('counts down by the browser clock, then says it is due, then drops the countdown', async () => {
    const context = await browser!.newContext();
    try {
      const page = await context.newPage();
      // Half a minute of slack: the installed clock keeps running while the page loads.
      await page.clock.install({ time: startAt - 10 * 60_000 - 30_000 });
      await page.goto(landingUrl);
      const countdown = page.locator('[data-countdown]');
      assert.equal(await countdown.innerText(), 'Starts in 10 minutes');
      await page.clock.runFor(10 * 60_000);
      assert.equal(await countdown.innerText(), 'Starts in less than a minute');
      await page.clock.runFor(60_000);
      // 15:00 UTC in New York, in winter or in summer.
      // Nobody entered the room, so the event is still Scheduled: not said to have started.
      assert.match(
        await countdown.innerText(),
        /^Not started yet, scheduled for (10:00 AM Eastern Standard Time|11:00 AM Eastern Daylight Time)$/,
      );
      await page.clock.runFor(3_600_000);
      assert.equal(await countdown.isVisible(), false);
    } finally {
      await context.close();
    }
  });

  it('shows the event’s zone and UTC without script, and hides the visitor row', async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(landingUrl);
      assert.equal(await page.locator('[data-visitor-time]').isVisible(), false);
      const schedule = await page.locator('dl.schedule').innerText();
      assert.match(schedule, /America\/New_York/);
      assert.match(schedule, /In UTC/);
      // As the server wrote it by its clock: a day or more ahead.
      assert.match(await page.locator('[data-countdown]').innerText(), /^Starts in \d+ days?/);
    } finally {
      await context.close();
    }
  });
});
