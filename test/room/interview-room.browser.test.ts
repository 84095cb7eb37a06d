import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Principal } from '../../src/oauth/principal.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import {
  FAKE_MEDIA_FLAGS,
  People,
  assertHearsAudioOf,
  assertPlaysVideoOf,
  identifyInterviewer,
  joinRoom,
  press,
} from '../support/interview-room.js';
import { startTestService } from '../support/service.js';
import {
  CREATE_EVENT,
  INTERVIEWER,
  conductInterview,
  endInterview,
  eventStartingSoon,
  readRecord,
  recordAFewSeconds,
  type GraphQL,
} from './conduct-interview.js';

// Callbacks of page.evaluate run in the browser; this project is typed for Node, without DOM types.
declare const document: any;
declare const navigator: any;
declare const DOMException: any;
declare const getComputedStyle: any;

/**
 * The interview room in headless Chromium with fake cameras and microphones, against one
 * service process on each database: real WebRTC between browser contexts, signalled through
 * the service.
 */
describeEachDialect(
  'the interview room in Chromium',
  (database) => {
    let service: Awaited<ReturnType<typeof startTestService>> | undefined;
    let browser: Browser | undefined;
    let people: People;
    let recordingsDir = '';
    let gql: GraphQL;

    before(async function () {
      const launched = await launchChromium(FAKE_MEDIA_FLAGS);
      if (!launched) this.skip();
      browser = launched;
      const tenant = await insertTenant(database().db, 'room');
      const principal: Principal = {
        kind: 'user',
        userId: tenant.userId,
        appId: tenant.appId,
        clientId: 'room-client',
        jti: 'room-token',
        employerId: tenant.employerId,
        scopes: ['employer_access'],
      };
      recordingsDir = await mkdtemp(join(tmpdir(), 'room-recordings-'));
      service = await startTestService(database(), {
        authenticate: async (token) => (token === 'scheduler' ? principal : null),
        env: { RECORDINGS_DIR: recordingsDir },
      });
      gql = async (query, variables) => {
        const response = await fetch(`${service!.url}/graphql`, {
          method: 'POST',
          headers: { authorization: 'Bearer scheduler', 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await response.json()) as { data?: any; errors?: unknown };
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        return body.data;
      };
    });

    beforeEach(() => {
      people = new People(browser!);
    });
    afterEach(async () => {
      await people?.close();
    });

    after(async () => {
      await browser?.close();
      await service?.stop();
      if (recordingsDir) await rm(recordingsDir, { recursive: true, force: true });
    });

    async function createEvent(extra: Record<string, unknown> = {}) {
      const data = await gql(CREATE_EVENT, { input: eventStartingSoon(extra) });
      const event = data.createVirtualInterviewEvent.event;
      return {
        id: event.id as string,
        interviewerUrl: event.interviewerLobbyUrl as string,
        intervieweeUrl: event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl as string,
      };
    }

    it('admits, meets on video, records, and ends, with every page following by itself', async () => {
      const event = await createEvent();
      const { interviewer, interviewee } = await conductInterview({
        people,
        gql,
        eventId: event.id,
        interviewerUrl: event.interviewerUrl,
        intervieweeUrl: event.intervieweeUrl,
      });
      await recordAFewSeconds(gql, event.id, interviewer, interviewee);
      await endInterview(gql, event.id, interviewer, interviewee);
    });

    it('lets a third person into a room of two, and all three see each other', async () => {
      const second = 'sam.second@example.com';
      const event = await createEvent({
        interviewers: [{ email: INTERVIEWER }, { email: second }],
      });
      const { interviewer, interviewee } = await conductInterview({
        people,
        gql,
        eventId: event.id,
        interviewerUrl: event.interviewerUrl,
        intervieweeUrl: event.intervieweeUrl,
      });
      const third = await people.newPage();
      await identifyInterviewer(third, event.interviewerUrl, second);
      await third.getByRole('link', { name: 'Open the interview room' }).click();
      await joinRoom(third);
      for (const page of [interviewer, interviewee, third]) await assertPlaysVideoOf(page, 2);
    });

    it('mirrors the preview as the self view, and lets someone who left rejoin', async () => {
      const event = await createEvent();
      const { interviewer, interviewee } = await conductInterview({
        people,
        gql,
        eventId: event.id,
        interviewerUrl: event.interviewerUrl,
        intervieweeUrl: event.intervieweeUrl,
      });
      const transform = (selector: string) =>
        interviewer.evaluate(
          (s) => getComputedStyle(document.querySelector(s)).transform,
          selector,
        );
      const mirrored = /^matrix\(-1, 0, 0, 1, 0, 0\)$/;
      assert.match(await transform('#videos .tile.mine video'), mirrored);

      await interviewer.getByRole('button', { name: 'Leave' }).click();
      await interviewer.getByText('You left the room.').waitFor();
      await interviewee.locator('#videos .tile:not(.mine) video').waitFor({ state: 'detached' });
      await interviewer.getByRole('button', { name: 'Rejoin' }).click();
      await interviewer.locator('#room-stage').waitFor({ state: 'visible' });
      assert.match(interviewer.url(), /\/room$/, 'still on the room page');
      await assertPlaysVideoOf(interviewer, 1);
      await assertPlaysVideoOf(interviewee, 1);

      // The preview, shown before joining, is mirrored like the self view.
      await interviewer.reload();
      await interviewer.locator('#preview-video').waitFor({ state: 'visible' });
      assert.match(await transform('#preview-video'), mirrored);
    });

    it('gives a PHONE event an audio-only room', async () => {
      const event = await createEvent({ mediaType: 'PHONE' });
      const interviewer = await people.newPage();
      await identifyInterviewer(interviewer, event.interviewerUrl, INTERVIEWER);
      const interviewee = await people.newPage();
      await interviewee.goto(event.intervieweeUrl);
      await press(interviewee, 'Check in');
      await press(interviewer, 'Admit');
      for (const page of [interviewer, interviewee]) {
        await page.getByRole('link', { name: /interview room/ }).click();
        assert.equal(await page.getByLabel('Camera').count(), 0, 'no camera on a phone interview');
        await joinRoom(page);
      }
      for (const page of [interviewer, interviewee]) {
        await assertHearsAudioOf(page, 1);
        assert.equal(await page.locator('#videos video').count(), 0);
        const sendsVideo = await page.evaluate(() =>
          [...document.querySelectorAll('#videos audio')].some(
            (element: any) => (element.srcObject as any)?.getVideoTracks().length,
          ),
        );
        assert.equal(sendsVideo, false);
      }
      assert.ok((await readRecord(gql, event.id)).records[0]?.startTime);
    });

    it('explains a refused camera and still lets the person join with audio', async () => {
      const event = await createEvent();
      const interviewer = await people.newPage();
      await identifyInterviewer(interviewer, event.interviewerUrl, INTERVIEWER);
      // The browser refuses the camera as it does when the person says no.
      await interviewer.addInitScript(() => {
        const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        navigator.mediaDevices.getUserMedia = (constraints: any) =>
          constraints?.video
            ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
            : original(constraints);
      });
      const interviewee = await people.newPage();
      await interviewee.goto(event.intervieweeUrl);
      await press(interviewee, 'Check in');
      await interviewer.reload();
      await press(interviewer, 'Admit');

      await interviewer.getByRole('link', { name: 'Open the interview room' }).click();
      await interviewer
        .getByText('We could not use your camera: permission to use it was refused.')
        .waitFor();
      await interviewer.getByText('You can still join with audio only.').waitFor();
      await joinRoom(interviewer);

      await interviewee.getByRole('link', { name: 'Join the interview room' }).click();
      await joinRoom(interviewee);
      await assertPlaysVideoOf(interviewer, 1);
      // The interviewee hears the interviewer, who sends no picture.
      await interviewee.waitForFunction(() => {
        const video = document.querySelector('#videos .tile:not(.mine) video');
        const stream = video?.srcObject as any;
        return stream?.getAudioTracks().some((track: any) => track.readyState === 'live');
      });
    });
  },
  { timeoutMs: BROWSER_TEST_TIMEOUT_MS },
);
