import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { Principal } from '../../src/oauth/principal.js';
import { launchChromium } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { interviewLandingPageUrl } } }`;

/** The landing page shows the visitor's own time with script on, and stays complete without it. */
describe('the landing page in the visitor’s time zone [sqlite]', function () {
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let browser: Browser | null = null;
  let landingUrl: string;

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
    const start = new Date(Date.now() + 24 * 3_600_000);
    start.setUTCHours(15, 0, 0, 0);
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
      assert.match(text, /Asia\/Tokyo/);
      assert.match(text, /00:00/, '15:00 UTC is midnight in Tokyo');
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
    } finally {
      await context.close();
    }
  });
});
