import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { Principal } from '../../src/oauth/principal.js';
import { CREATE_EVENT, INTERVIEWER, eventStartingSoon } from '../room/conduct-interview.js';
import { BROWSER_TEST_TIMEOUT_MS, captureBothWidths, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { assertVideosPlay, press } from '../support/interview-room.js';
import { interviewerCookie, postLobbyStep } from '../support/lobby-forms.js';
import { startTestService } from '../support/service.js';

// Callbacks of page.evaluate run in the browser; this project is typed for Node, without DOM types.
declare const document: any;
declare const window: any;
declare const localStorage: any;
declare const sessionStorage: any;
declare const getComputedStyle: any;
declare const MediaStreamTrack: any;

/**
 * Chromium's synthetic devices (two cameras, three microphones; the microphone beeps), media
 * that plays without a click, and no automatic answer to permission prompts: a context granted
 * camera and microphone gets them, any other is refused, as when a person says no.
 */
const DEVICE_FLAGS = [
  '--use-fake-device-for-media-stream=device-count=2',
  '--autoplay-policy=no-user-gesture-required',
];
const GRANTED = ['camera', 'microphone'];
const ARTIFACTS = 'device-check';

/**
 * The candidate's camera and microphone check in the interviewee lobby (public/device-check.js),
 * before an interviewer admits them.
 */
describeEachDialect(
  'the camera and microphone check of the interviewee lobby',
  (database) => {
    let browser: Browser | null = null;
    let service: Awaited<ReturnType<typeof startTestService>>;
    const pages: Page[] = [];

    before(async function () {
      browser = await launchChromium(DEVICE_FLAGS);
      if (!browser) this.skip();
      const tenant = await insertTenant(database().db, 'device-check');
      const principal: Principal = {
        kind: 'app',
        appId: tenant.appId,
        ownerUserId: tenant.userId,
        clientId: 'device-check-client',
        jti: 'device-check-token',
        employerId: tenant.employerId,
        scopes: ['employer_access'],
      };
      service = await startTestService(database(), { authenticate: async () => principal });
    });
    afterEach(async () => {
      for (const page of pages.splice(0)) await page.context().close();
    });
    after(async () => {
      await browser?.close();
      await service?.stop();
    });

    async function scheduled(extra: Record<string, unknown> = {}) {
      const { body } = await postGraphQL(service.url, 'scheduler', {
        query: CREATE_EVENT,
        variables: { input: eventStartingSoon(extra) },
      });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const event = body.data.createVirtualInterviewEvent.event;
      return {
        interviewee: new URL(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl)
          .pathname as string,
        interviewer: new URL(event.interviewerLobbyUrl).pathname as string,
      };
    }

    /** The interviewee's lobby, checked in, in a browser of its own. */
    async function waitingInLobby(path: string, permissions: string[]): Promise<Page> {
      const page = await (await browser!.newContext({ permissions })).newPage();
      pages.push(page);
      await page.goto(`${service.url}${path}`);
      await press(page, 'Check in');
      await page.getByText('You are checked in and waiting in the lobby.').waitFor();
      return page;
    }

    /** Waits until the level meter shows sound, and answers the value it showed. */
    async function heardLevel(page: Page): Promise<number> {
      const meter = page.getByRole('meter', { name: 'Microphone level' });
      await meter.waitFor();
      const handle = await page.waitForFunction(() => {
        const value = Number(document.getElementById('device-check-level').value);
        return value > 0 && value;
      });
      return (await handle.jsonValue()) as number;
    }

    it('shows the mirrored camera, a moving level and the devices, and keeps the choice', async () => {
      const event = await scheduled();
      const page = await waitingInLobby(event.interviewee, GRANTED);
      const heading = page.getByRole('heading', { name: 'Check your camera and microphone' });
      await heading.waitFor();
      await page.getByRole('button', { name: 'Check camera and microphone' }).click();

      await assertVideosPlay(page, '#device-check-video');
      const transform = await page.evaluate(
        () => getComputedStyle(document.getElementById('device-check-video')).transform,
      );
      assert.equal(transform, 'matrix(-1, 0, 0, 1, 0, 0)', 'the preview is mirrored');
      assert.ok((await heardLevel(page)) > 0);

      const camera = page.getByLabel('Camera', { exact: true });
      const microphone = page.getByLabel('Microphone', { exact: true });
      const cameras = await camera.locator('option').allTextContents();
      assert.deepEqual(cameras, ['fake_device_0', 'fake_device_1']);
      assert.ok((await microphone.locator('option').count()) >= 1);
      const inUse = () =>
        page.evaluate(() => {
          const stream = document.getElementById('device-check-video').srcObject;
          const [video] = stream.getVideoTracks();
          const [audio] = stream.getAudioTracks();
          return { camera: video.getSettings().deviceId, microphone: audio.getSettings().deviceId };
        });
      assert.equal(await camera.inputValue(), (await inUse()).camera, 'the camera in use is shown');
      assert.equal(await microphone.inputValue(), (await inUse()).microphone);

      await camera.selectOption({ label: 'fake_device_1' });
      const chosen = await camera.inputValue();
      await page.waitForFunction(
        (chosen) =>
          document
            .getElementById('device-check-video')
            .srcObject?.getVideoTracks()[0]
            ?.getSettings().deviceId === chosen,
        chosen,
      );
      await assertVideosPlay(page, '#device-check-video');
      const stored = await page.evaluate(() => ({
        camera: localStorage.getItem('interview-room.camera'),
        microphone: localStorage.getItem('interview-room.microphone'),
      }));
      assert.deepEqual(stored, { camera: chosen, microphone: (await inUse()).microphone });
      await captureBothWidths(page, ARTIFACTS, 'running');

      // Remembered: the next check opens the chosen camera again.
      await page.reload();
      await page.getByRole('button', { name: 'Check camera and microphone' }).click();
      await assertVideosPlay(page, '#device-check-video');
      assert.equal((await inUse()).camera, chosen);
      assert.equal(await camera.inputValue(), chosen);

      // Admitted, the candidate leaves for the room: the check lets go of both devices.
      await page.evaluate(() => {
        const stop = MediaStreamTrack.prototype.stop;
        MediaStreamTrack.prototype.stop = function (this: any) {
          if (this.readyState === 'live') {
            const stopped = JSON.parse(sessionStorage.getItem('stopped') ?? '[]');
            sessionStorage.setItem('stopped', JSON.stringify([...stopped, this.kind].sort()));
          }
          return stop.call(this);
        };
      });
      const cookie = await interviewerCookie(service.url, event.interviewer, INTERVIEWER);
      await postLobbyStep(service.url, event.interviewer, 'admit', cookie);
      await page.getByRole('link', { name: 'Join the interview room' }).click();
      await page.waitForURL(/\/room$/);
      const stopped = await page.evaluate(() => sessionStorage.getItem('stopped'));
      assert.equal(stopped, JSON.stringify(['audio', 'video']));
    });

    it('says plainly that the browser refused the camera and microphone', async () => {
      const event = await scheduled();
      const page = await waitingInLobby(event.interviewee, []);
      await page.getByRole('button', { name: 'Check camera and microphone' }).click();
      const alert = page.getByRole('alert');
      await alert
        .getByText('Your browser did not let this page use your camera and microphone.')
        .waitFor();
      assert.match(await alert.innerText(), /nobody will see or hear you/);
      assert.equal(await page.locator('#device-check-video').isVisible(), false);
      await page.getByRole('button', { name: 'Try again' }).waitFor();
      await captureBothWidths(page, ARTIFACTS, 'refused');
    });

    it('still checks the microphone when no camera is found, and says so', async () => {
      const event = await scheduled();
      const page = await waitingInLobby(event.interviewee, GRANTED);
      // As a computer without a camera answers (Chromium's fake devices always have one).
      await page.evaluate(() => {
        const devices = window.navigator.mediaDevices;
        const open = devices.getUserMedia.bind(devices);
        devices.getUserMedia = (constraints: any) =>
          constraints.video
            ? Promise.reject(new window.DOMException('Requested device not found', 'NotFoundError'))
            : open(constraints);
      });
      await page.getByRole('button', { name: 'Check camera and microphone' }).click();
      const alert = page.getByRole('alert');
      await alert.getByText('No camera was found: connect one, then press “Try again”.').waitFor();
      assert.match(await alert.innerText(), /The interviewers will hear you, but not see you\./);
      assert.ok((await heardLevel(page)) > 0);
      assert.equal(await page.locator('#device-check-video').isVisible(), false);
      await page.getByRole('button', { name: 'Try again' }).waitFor();
    });

    it('checks only the microphone before a phone interview', async () => {
      const event = await scheduled({ mediaType: 'PHONE' });
      const page = await waitingInLobby(event.interviewee, GRANTED);
      await page.evaluate(() => {
        const devices = window.navigator.mediaDevices;
        const open = devices.getUserMedia.bind(devices);
        window.requested = [];
        devices.getUserMedia = (constraints: any) => {
          window.requested.push(Object.keys(constraints).filter((kind) => constraints[kind]));
          return open(constraints);
        };
      });
      await page.getByRole('button', { name: 'Check microphone' }).click();
      assert.ok((await heardLevel(page)) > 0);
      assert.equal(await page.locator('#device-check-video').count(), 0);
      assert.equal(await page.getByLabel('Camera', { exact: true }).count(), 0);
      assert.ok(
        (await page.getByLabel('Microphone', { exact: true }).locator('option').count()) > 0,
      );
      assert.deepEqual(await page.evaluate(() => window.requested), [['audio']]);
    });
  },
  { timeoutMs: BROWSER_TEST_TIMEOUT_MS },
);
