import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { Principal } from '../../src/oauth/principal.js';
import { BROWSER_WAIT_MS, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import {
  FAKE_MEDIA_FLAGS,
  People,
  assertPlaysVideoOf,
  assertVideosPlay,
  identifyInterviewer,
  joinRoom,
  press,
} from '../support/interview-room.js';
import { startTestService } from '../support/service.js';
import { CREATE_EVENT, INTERVIEWER, eventStartingSoon } from './conduct-interview.js';

// Callbacks of page.evaluate run in the browser; this project is typed for Node, without DOM types.
declare const document: any;
declare const navigator: any;

const INTERVIEWERS = [
  INTERVIEWER,
  'sam.second@example.com',
  'kim.third@example.com',
  'alex.fourth@example.com',
];

/**
 * Twenty video streams (each of five browsers sends to four) on the README's two busy cores: the
 * fake camera runs at 10 frames a second, and each page asks it for 320×240, the smallest
 * picture it offers, by adding a size to the room script's own request.
 */
const MESH_FLAGS = FAKE_MEDIA_FLAGS.map((flag) =>
  flag === '--use-fake-device-for-media-stream' ? `${flag}=fps=5` : flag,
);

/**
 * How long one step may take: every newcomer sets up a connection with each person present while
 * all the others keep encoding and decoding, which on two cores shared with the rest of a test
 * run has taken more than the usual BROWSER_WAIT_MS.
 */
const MESH_WAIT_MS = 3 * BROWSER_WAIT_MS;

/**
 * The largest interview the room is made for, in Chromium with fake devices: an interviewee and
 * four interviewers, each in a browser context of their own, all in one mesh, and every one of
 * them plays every other one's video. One browser and one service process per database.
 */
describeEachDialect(
  'a five-person interview room in Chromium',
  (database) => {
    let browser: Browser | null = null;
    let service: Awaited<ReturnType<typeof startTestService>>;
    let people: People;

    before(async function () {
      browser = await launchChromium(MESH_FLAGS);
      if (!browser) this.skip();
      const tenant = await insertTenant(database().db, 'mesh');
      const principal: Principal = {
        kind: 'app',
        appId: tenant.appId,
        ownerUserId: tenant.userId,
        clientId: 'mesh-client',
        jti: 'mesh-token',
        employerId: tenant.employerId,
        scopes: ['employer_access'],
      };
      service = await startTestService(database(), { authenticate: async () => principal });
      people = new People(browser);
    });
    after(async () => {
      await people?.close();
      await browser?.close();
      await service?.stop();
    });

    /** A person's page, waiting MESH_WAIT_MS, asking the camera for its smallest picture. */
    async function smallCamera(page: Page): Promise<Page> {
      page.context().setDefaultTimeout(MESH_WAIT_MS);
      await page.addInitScript(() => {
        const devices = navigator.mediaDevices;
        const open = devices.getUserMedia.bind(devices);
        devices.getUserMedia = (constraints: any) => {
          const video = constraints?.video;
          if (!video) return open(constraints);
          const small = { width: { ideal: 320 }, height: { ideal: 240 } };
          return open({ ...constraints, video: video === true ? small : { ...video, ...small } });
        };
      });
      return page;
    }

    /**
     * Joins once the camera plays in the preview: a Join pressed before the camera has opened
     * enters the room without video, which on a machine this busy can happen.
     */
    async function joinWithCamera(page: Page): Promise<void> {
      await assertVideosPlay(page, '#preview-video');
      await joinRoom(page);
    }

    it('connects an interviewee and four interviewers, each playing the four others’ video', async () => {
      const { body } = await postGraphQL(service.url, 'scheduler', {
        query: CREATE_EVENT,
        variables: {
          input: eventStartingSoon({ interviewers: INTERVIEWERS.map((email) => ({ email })) }),
        },
      });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const event = body.data.createVirtualInterviewEvent.event;

      const interviewers: Page[] = [];
      for (const email of INTERVIEWERS) {
        const page = await smallCamera(await people.newPage());
        await identifyInterviewer(page, event.interviewerLobbyUrl, email);
        interviewers.push(page);
      }
      const interviewee = await smallCamera(await people.newPage());
      await interviewee.goto(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl);
      await press(interviewee, 'Check in');
      const [admitting] = interviewers;
      await admitting!.getByText('Checked in, waiting in the lobby').waitFor();
      await press(admitting!, 'Admit');
      await interviewee.getByRole('link', { name: 'Join the interview room' }).click();
      await joinWithCamera(interviewee);

      // One at a time, each newcomer playing everyone already there before the next one comes.
      for (const [index, page] of interviewers.entries()) {
        await page.getByRole('link', { name: 'Open the interview room' }).click();
        await joinWithCamera(page);
        await assertPlaysVideoOf(page, index + 1).catch(async (error: Error) => {
          const participants = await page.locator('#participants').innerText();
          throw new Error(`interviewer ${index + 1} of 4, ${error.message}\n${participants}`, {
            cause: error,
          });
        });
      }

      const everyone = [interviewee, ...interviewers];
      for (const page of everyone) await assertPlaysVideoOf(page, 4);
      for (const page of everyone) {
        const seen = await page.evaluate(() => {
          const sent = document.querySelector('#videos .tile.mine video')?.srcObject;
          const remote = [...document.querySelectorAll('#videos .tile:not(.mine) video')].map(
            (video: any) => video.srcObject,
          );
          return {
            sendsVideo: sent?.getVideoTracks().some((t: any) => t.readyState === 'live') ?? false,
            distinctRemotes: new Set(remote.map((stream: any) => stream?.id)).size,
            remotesWithSound: remote.filter((stream: any) =>
              stream?.getAudioTracks().some((t: any) => t.readyState === 'live'),
            ).length,
          };
        });
        assert.deepEqual(
          seen,
          { sendsVideo: true, distinctRemotes: 4, remotesWithSound: 4 },
          page.url(),
        );
      }
    });
  },
  // About twenty steps; a few may take long, none may hang.
  { timeoutMs: 8 * MESH_WAIT_MS },
);
