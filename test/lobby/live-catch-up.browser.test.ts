import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { CREATE_EVENT, INTERVIEWER, eventStartingSoon } from '../room/conduct-interview.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { assertSameDocument, markDocument } from '../support/interview-room.js';
import type { LiveUpgradeGate } from '../support/live-upgrade-gate.js';
import { startGatedService } from '../support/gated-service.js';
import { interviewerCookie, postLobbyStep } from '../support/lobby-forms.js';
import type { startTestService } from '../support/service.js';

const WAITING = 'You are checked in and waiting in the lobby.';
const ADMITTED = 'You are being interviewed now.';

/**
 * The interviewee lobby in Chromium reaches "admitted" however the admission and its live
 * connection interleave: the service is reached through a gate that holds the page's live
 * connection (its WebSocket upgrade) while an interviewer admits, then lets it through.
 */
describeEachDialect(
  'an interviewee lobby whose live connection is delayed',
  (database) => {
    let browser: Browser | null = null;
    let gate: LiveUpgradeGate;
    let service: Awaited<ReturnType<typeof startTestService>>;
    const pages: Page[] = [];

    before(async function () {
      browser = await launchChromium();
      if (!browser) this.skip();
      ({ gate, service } = await startGatedService(database(), 'live-catch-up'));
    });
    afterEach(async () => {
      gate?.open();
      for (const page of pages.splice(0)) await page.context().close();
    });
    after(async () => {
      await browser?.close();
      await service?.stop();
      await gate?.stop();
    });

    /** A checked-in interviewee's lobby path and the admitting interviewer's cookie. */
    async function checkedInEvent() {
      const { body } = await postGraphQL(service.url, 'scheduler', {
        query: CREATE_EVENT,
        variables: { input: eventStartingSoon() },
      });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const event = body.data.createVirtualInterviewEvent.event;
      const interviewee = new URL(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl)
        .pathname;
      const interviewer = new URL(event.interviewerLobbyUrl).pathname;
      await postLobbyStep(service.url, interviewee, 'check-in');
      const cookie = await interviewerCookie(service.url, interviewer, INTERVIEWER);
      return {
        interviewee,
        admit: () => postLobbyStep(service.url, interviewer, 'admit', cookie),
      };
    }

    /** The lobby in a browser of its own; `greeted` settles once the service greets it live. */
    async function openLobby(path: string): Promise<{ page: Page; greeted: Promise<void> }> {
      const page = await (await browser!.newContext()).newPage();
      pages.push(page);
      const greeted = new Promise<void>((resolve) => {
        page.on('websocket', (socket) =>
          socket.on('framereceived', (frame) => {
            if (String(frame.payload).includes('"hello"')) resolve();
          }),
        );
      });
      await page.goto(`${gate.url}${path}`);
      await page.getByText(WAITING).waitFor();
      await markDocument(page);
      return { page, greeted };
    }

    it('reaches "admitted" when the admission comes while its first connection opens', async () => {
      const event = await checkedInEvent();
      gate.close();
      const { page } = await openLobby(event.interviewee);
      await gate.holding(1);

      await event.admit();
      // Nothing has told the page yet: it still shows what it was rendered with.
      assert.equal(await page.getByText(WAITING).isVisible(), true);

      gate.open();
      await page.getByText(ADMITTED).waitFor();
      await page.getByRole('link', { name: 'Join the interview room' }).waitFor();
      await assertSameDocument(page);
    });

    it('reaches "admitted" when the admission comes while it reconnects', async () => {
      const event = await checkedInEvent();
      const { page, greeted } = await openLobby(event.interviewee);
      // Connected: the service greeted it, so it was told of every change from then on.
      await greeted;
      const heldBefore = gate.held;

      gate.close();
      gate.cut();
      await gate.holding(heldBefore + 1);
      await event.admit();
      assert.equal(await page.getByText(WAITING).isVisible(), true);

      gate.open();
      await page.getByText(ADMITTED).waitFor();
      await assertSameDocument(page);
    });

    it('reaches "admitted" when the service is busy as the page fetches the change', async () => {
      const event = await checkedInEvent();
      const { page, greeted } = await openLobby(event.interviewee);
      await greeted;
      let busyAnswers = 0;
      await page.route(`${gate.url}${event.interviewee}`, async (route) => {
        if (busyAnswers > 0) return route.continue();
        busyAnswers += 1;
        await route.fulfill({ status: 503, contentType: 'text/plain', body: 'busy' });
      });

      await event.admit();
      await page.getByText(ADMITTED).waitFor();
      assert.equal(busyAnswers, 1);
      await assertSameDocument(page);
    });
  },
  { timeoutMs: BROWSER_TEST_TIMEOUT_MS },
);
