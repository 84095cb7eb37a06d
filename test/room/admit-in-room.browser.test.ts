import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import {
  FAKE_MEDIA_FLAGS,
  People,
  assertPlaysVideoOf,
  assertSameDocument,
  identifyInterviewer,
  joinRoom,
  markDocument,
  press,
} from '../support/interview-room.js';
import type { LiveUpgradeGate } from '../support/live-upgrade-gate.js';
import { startGatedService } from '../support/gated-service.js';
import { interviewerCookie, postLobbyStep } from '../support/lobby-forms.js';
import type { startTestService } from '../support/service.js';
import { CREATE_EVENT, INTERVIEWER, eventStartingSoon } from './conduct-interview.js';

const WAITING = 'Robin Applicant is waiting in the lobby.';
const IN_INTERVIEW = 'Robin Applicant is in the interview.';

/**
 * Admit and Send back from inside the room, in Chromium with fake devices: the interviewer never
 * leaves the room page. The service is reached through a gate that can hold the room page's live
 * connection, to show that the page learns the state when its connection opens (and reopens),
 * whatever happened meanwhile.
 */
describeEachDialect(
  'admitting from inside the interview room',
  (database) => {
    let browser: Browser | null = null;
    let gate: LiveUpgradeGate;
    let service: Awaited<ReturnType<typeof startTestService>>;
    let people: People;

    before(async function () {
      browser = await launchChromium(FAKE_MEDIA_FLAGS);
      if (!browser) this.skip();
      ({ gate, service } = await startGatedService(database(), 'admit-in-room'));
    });
    beforeEach(() => {
      people = new People(browser!);
    });
    afterEach(async () => {
      gate?.open();
      await people?.close();
    });
    after(async () => {
      await browser?.close();
      await service?.stop();
      await gate?.stop();
    });

    /** A new event's lobby paths (the interviewee is Robin Applicant). */
    async function createEvent() {
      const { body } = await postGraphQL(service.url, 'scheduler', {
        query: CREATE_EVENT,
        variables: { input: eventStartingSoon() },
      });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const event = body.data.createVirtualInterviewEvent.event;
      return {
        interviewer: new URL(event.interviewerLobbyUrl).pathname as string,
        interviewee: new URL(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl)
          .pathname as string,
      };
    }

    /** The interviewer, identified, on the room page (not yet joined). */
    async function interviewerInRoomPage(lobby: string): Promise<Page> {
      const page = await people.newPage();
      await identifyInterviewer(page, `${gate.url}${lobby}`, INTERVIEWER);
      await page.getByRole('link', { name: 'Open the interview room' }).click();
      await page.getByRole('button', { name: 'Join the interview' }).waitFor();
      return page;
    }

    it('shows the arrival, admits and sends back without leaving the room; the candidate follows', async () => {
      const event = await createEvent();
      const interviewer = await interviewerInRoomPage(event.interviewer);
      await joinRoom(interviewer);
      await interviewer.getByText('Waiting for the others to join').waitFor();
      await markDocument(interviewer);
      assert.equal(await interviewer.locator('#admission').isVisible(), false, 'nobody waits');

      const candidate = await people.newPage();
      await candidate.goto(`${gate.url}${event.interviewee}`);
      await press(candidate, 'Check in');
      await interviewer.getByText(WAITING).waitFor();

      await interviewer.getByRole('button', { name: 'Admit', exact: true }).click();
      await interviewer.getByText(IN_INTERVIEW).waitFor();
      // The candidate's lobby follows by itself and shows the way in.
      await candidate.getByRole('link', { name: 'Join the interview room' }).click();
      await joinRoom(candidate);
      await assertPlaysVideoOf(candidate, 1);
      await assertPlaysVideoOf(interviewer, 1);

      // Send back: the candidate leaves the room for the lobby, and may be admitted again.
      await interviewer.getByRole('button', { name: 'Send back to lobby', exact: true }).click();
      await candidate.getByText('An interviewer sent you back to the lobby.').waitFor();
      await candidate.getByText('You are back in the lobby.').waitFor();
      await interviewer.getByText(WAITING).waitFor();
      await interviewer.locator('#videos .tile:not(.mine)').waitFor({ state: 'detached' });
      assert.equal(
        await interviewer.getByRole('button', { name: 'Admit', exact: true }).isVisible(),
        true,
      );
      await assertSameDocument(interviewer);
    });

    it('shows an arrival and an admission that happen while its live connection opens', async () => {
      const event = await createEvent();
      const page = await people.newPage();
      await identifyInterviewer(page, `${gate.url}${event.interviewer}`, INTERVIEWER);
      const heldBefore = gate.held;
      gate.close();
      await page.goto(`${gate.url}${event.interviewer}/room`);
      await gate.holding(heldBefore + 1);
      await markDocument(page);

      await postLobbyStep(service.url, event.interviewee, 'check-in');
      // Nothing has told the page yet.
      assert.equal(await page.getByText(WAITING).isVisible(), false);
      gate.open();
      await page.getByText(WAITING).waitFor();

      // Connected; the connection is lost and, while it is opened again, the candidate is admitted.
      gate.close();
      gate.cut();
      await gate.holding(heldBefore + 2);
      const cookie = await interviewerCookie(service.url, event.interviewer, INTERVIEWER);
      await postLobbyStep(service.url, event.interviewer, 'admit', cookie);
      assert.equal(await page.getByText(WAITING).isVisible(), true, 'not told yet');
      gate.open();
      await page.getByText(IN_INTERVIEW).waitFor();
      await assertSameDocument(page);
    });
  },
  { timeoutMs: BROWSER_TEST_TIMEOUT_MS },
);
