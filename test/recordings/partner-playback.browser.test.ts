import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Principal } from '../../src/oauth/principal.js';
import { allowBrowserTestTime, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { FAKE_MEDIA_FLAGS, People } from '../support/interview-room.js';
import { startTestService } from '../support/service.js';
import {
  CREATE_EVENT,
  conductInterview,
  eventStartingSoon,
  readRecord,
  recordAFewSeconds,
  type GraphQL,
} from '../room/conduct-interview.js';
import { webmSummary } from './webm-summary.js';

// Callbacks of page.evaluate run in the browser; this project is typed for Node, without DOM types.
declare const document: any;

/** A partner's own site, on another origin: a page with a `<video>`, and files it serves itself. */
async function partnerSite(files: Map<string, Buffer>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://partner').pathname;
    const file = files.get(path);
    if (file) {
      res.writeHead(200, { 'content-type': 'video/webm', 'content-length': file.length });
      res.end(file);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Partner ATS</title><h1>Candidate</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * Plays `src` in a `<video>` on `page`: waits for its metadata, plays a moment, then seeks to
 * the middle. Answers what the browser saw.
 */
function playAndSeek(page: Page, src: string) {
  // No named functions inside: the test runner's transform would refer to a helper the page lacks.
  return page.evaluate(async (src) => {
    const video = document.createElement('video');
    video.muted = true;
    video.src = src;
    document.body.append(video);
    await new Promise((resolve, reject) => {
      video.addEventListener('loadedmetadata', resolve, { once: true });
      video.addEventListener('error', () => reject(new Error(`${src}: ${video.error?.message}`)));
    });
    const duration = video.duration;
    const start = video.currentTime;
    await video.play();
    while (video.currentTime < start + 0.3) await new Promise((resolve) => setTimeout(resolve, 50));
    const played = video.currentTime - start;
    video.pause();
    const seeked = new Promise((resolve) =>
      video.addEventListener('seeked', resolve, { once: true }),
    );
    video.currentTime = duration / 2;
    await seeked;
    return { duration, played, afterSeek: video.currentTime, readyState: video.readyState };
  }, src);
}

/**
 * The bounding box of the picture in the left tile of the recording's middle frame: the pixels
 * that differ from the mixer's #111 background. The left tile is the interviewer's own camera.
 */
function pictureInLeftTile(page: Page, src: string) {
  return page.evaluate(async (src) => {
    const video = document.createElement('video');
    video.muted = true;
    video.src = src;
    document.body.append(video);
    await new Promise((resolve) =>
      video.addEventListener('loadedmetadata', resolve, { once: true }),
    );
    const seeked = new Promise((resolve) =>
      video.addEventListener('seeked', resolve, { once: true }),
    );
    video.currentTime = video.duration / 2;
    await seeked;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext('2d');
    context.drawImage(video, 0, 0);
    const tileWidth = canvas.width / 2;
    const { data } = context.getImageData(0, 0, tileWidth, canvas.height);
    let [top, bottom, left, right] = [Infinity, -1, Infinity, -1];
    for (let y = 0; y < canvas.height; y += 1) {
      for (let x = 0; x < tileWidth; x += 1) {
        const at = (y * tileWidth + x) * 4;
        const distance =
          Math.abs(data[at] - 17) + Math.abs(data[at + 1] - 17) + Math.abs(data[at + 2] - 17);
        if (distance < 40) continue;
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
    return {
      frame: { width: canvas.width, height: canvas.height },
      box: { top, bottom, left, right, width: right - left + 1, height: bottom - top + 1 },
    };
  }, src);
}

/**
 * A recording made in the room, as a partner uses it: embedded in a `<video>` on the partner's
 * own origin it plays, knows its duration and seeks (finalisation wrote Duration and Cues);
 * the interviewer lobby lists it; and the mixer kept the camera's aspect ratio.
 */
describeEachDialect('recordings: a partner plays the recording on its own site', (database) => {
  allowBrowserTestTime();
  let browser: Browser | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let recordingsDir = '';
  let gql: GraphQL;
  let people: People;
  let partner: { url: string; server: Server } | undefined;
  const partnerFiles = new Map<string, Buffer>();

  before(async function () {
    const launched = await launchChromium(FAKE_MEDIA_FLAGS);
    if (!launched) this.skip();
    browser = launched;
    const tenant = await insertTenant(database().db, 'playback');
    const principal: Principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'playback-client',
      jti: 'playback-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    recordingsDir = await mkdtemp(join(tmpdir(), 'playback-recordings-'));
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
    partner = await partnerSite(partnerFiles);
    people = new People(browser);
  });

  after(async () => {
    await people?.close();
    await browser?.close();
    await service?.stop();
    partner?.server.close();
    if (recordingsDir) await rm(recordingsDir, { recursive: true, force: true });
  });

  it('plays with a finite duration and seeks on another origin; the lobby lists it; the camera keeps its shape', async () => {
    const created = (await gql(CREATE_EVENT, { input: eventStartingSoon() }))
      .createVirtualInterviewEvent.event;
    const eventId = created.id as string;
    const { interviewer, interviewee } = await conductInterview({
      people,
      gql,
      eventId,
      interviewerUrl: created.interviewerLobbyUrl,
      intervieweeUrl: created.intervieweesConnection.interviewees[0].intervieweeLobbyUrl,
    });
    const camera = await interviewer.evaluate(() => {
      const video = document.querySelector('#videos .tile.mine video');
      return { width: video.videoWidth, height: video.videoHeight };
    });
    await recordAFewSeconds(gql, eventId, interviewer, interviewee);

    // Final once the stop's finalisation committed: the URL then serves the seekable copy.
    const { db } = database();
    for (let tries = 0; ; tries += 1) {
      const row = await db('recordings').where({ event_id: eventId }).first();
      if (row?.finalised_at != null) break;
      assert.ok(tries < 200, 'the recording becomes final');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [record] = (await readRecord(gql, eventId)).records;
    const url = record!.recordingUrl!;
    const response = await fetch(url);
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    const bytes = Buffer.from(await response.arrayBuffer());
    const summary = webmSummary(bytes);
    assert.ok(summary.durationMs! > 1000, `Duration ${summary.durationMs}`);
    assert.ok(summary.cues.length > 0, 'Cues');

    // The interviewer lobby lists it, with its link.
    await interviewer.goto(created.interviewerLobbyUrl);
    const link = interviewer.getByRole('link', { name: 'Recording 1' });
    assert.equal(await link.getAttribute('href'), url);
    await interviewer.locator('#live-recordings').getByText('Ready to watch').waitFor();

    // The partner's page, on its own origin, embeds the capability URL.
    const site = await people.newPage();
    const blocked: string[] = [];
    site.on('requestfailed', (request) => blocked.push(request.failure()?.errorText ?? ''));
    await site.goto(partner!.url);
    assert.notEqual(new URL(partner!.url).origin, new URL(url).origin);
    const played = await playAndSeek(site, url);
    assert.deepEqual(blocked, []);
    assert.ok(Number.isFinite(played.duration), `duration ${played.duration}`);
    assert.ok(
      Math.abs(played.duration - summary.durationMs! / 1000) < 0.5,
      String(played.duration),
    );
    assert.ok(played.played >= 0.3, `it plays: ${JSON.stringify(played)}`);
    assert.ok(
      Math.abs(played.afterSeek - played.duration / 2) < 0.5,
      `seeked to ${played.afterSeek} of ${played.duration}`,
    );
    assert.ok(played.readyState >= 2, 'a frame is there after the seek');

    // A frame, drawn where the partner may read pixels (its own copy, same origin).
    partnerFiles.set('/copy.webm', bytes);
    const frame = await pictureInLeftTile(site, `${partner!.url}/copy.webm`);
    assert.deepEqual(frame.frame, { width: 1280, height: 720 });
    const expected = camera.width / camera.height;
    const measured = frame.box.width / frame.box.height;
    assert.ok(
      Math.abs(measured - expected) / expected < 0.04,
      `camera ${camera.width}×${camera.height}, picture ${JSON.stringify(frame.box)}`,
    );
    // Letterboxed: as wide as the tile, centred between equal bars.
    assert.ok(frame.box.width >= 636, JSON.stringify(frame.box));
    assert.ok(
      Math.abs(frame.box.top - (720 - frame.box.bottom - 1)) <= 4,
      JSON.stringify(frame.box),
    );
  });
});
