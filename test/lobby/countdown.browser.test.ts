import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ManualClock } from '../../src/clock.js';
import type { Principal } from '../../src/oauth/principal.js';
import { launchChromium } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { interviewLandingPageUrl } } }`;

const MINUTE = 60_000;
/** 9:00 AM in New York, an hour long. */
const START = Date.UTC(2026, 11, 1, 14, 0);

/**
 * The countdown follows the browser's clock once public/countdown.js runs, and stays as the
 * server wrote it (by the service clock) without script.
 */
describe('the countdown in Chromium [sqlite]', function () {
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let browser: Browser | null = null;
  let landingUrl: string;

  before(async function () {
    browser = await launchChromium();
    if (!browser) this.skip();
    database = await createTestDatabase('sqlite');
    const tenant = await insertTenant(database.db, 'countdown');
    const principal: Principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'c',
      jti: 'j',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database, {
      authenticate: async () => principal,
      clock: new ManualClock(START - 190 * MINUTE),
    });
    const { body } = await postGraphQL(service.url, 'any', {
      query: CREATE,
      variables: {
        input: {
          title: 'Countdown check',
          startTime: new Date(START).toISOString(),
          endTime: new Date(START + 60 * MINUTE).toISOString(),
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

  it('counts down by the browser clock, then says when it started, then goes away', async () => {
    const context = await browser!.newContext();
    try {
      const page = await context.newPage();
      // Half a minute of slack: the installed clock keeps running while the page loads.
      await page.clock.install({ time: START - 10 * MINUTE - 30_000 });
      await page.goto(landingUrl);
      const countdown = page.locator('[data-countdown]');
      assert.equal(await countdown.innerText(), 'Starts in 10 minutes');
      await page.clock.runFor(10 * MINUTE);
      assert.equal(await countdown.innerText(), 'Starts in less than a minute');
      await page.clock.runFor(MINUTE);
      assert.equal(await countdown.innerText(), 'Started at 9:00 AM EST');
      await page.clock.runFor(60 * MINUTE);
      assert.equal(await countdown.isVisible(), false);
    } finally {
      await context.close();
    }
  });

  it('shows the countdown the server wrote when script is off', async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(landingUrl);
      assert.equal(
        await page.locator('[data-countdown]').innerText(),
        'Starts in 3 hours 10 minutes',
      );
    } finally {
      await context.close();
    }
  });
});
