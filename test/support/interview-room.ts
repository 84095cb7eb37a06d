import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { BROWSER_WAIT_MS } from './browser.js';

// Callbacks of page.evaluate run in the browser; this project is typed for Node, without DOM types.
declare const document: any;
declare const window: any;

/**
 * Chromium flags for media tests (ENGINEERING-NOTES "WebRTC in headless Chromium"): a synthetic
 * camera and microphone, permission granted without a prompt, host candidates on loopback
 * visible, and media that plays without a click.
 */
export const FAKE_MEDIA_FLAGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
  '--autoplay-policy=no-user-gesture-required',
];

export const RECORD_QUERY = `query($ids: [ID!]!) {
  virtualInterviewEvents(input: { ids: $ids }) {
    events {
      status
      intervieweesConnection {
        interviewees {
          status
          interviewRecordsConnection { records { startTime endTime recordingUrl } }
        }
      }
    }
  }
}`;

export interface ReadRecord {
  status: string;
  records: Array<{ startTime: string | null; endTime: string | null; recordingUrl: string | null }>;
}

/** People in browser contexts of their own: their own cookies, as on other machines. */
export class People {
  private readonly contexts: BrowserContext[] = [];

  constructor(private readonly browser: Browser) {}

  async newPage(): Promise<Page> {
    const context = await this.browser.newContext();
    this.contexts.push(context);
    const page = await context.newPage();
    if (process.env.ROOM_DEBUG) {
      page.on('console', (m) => console.log('[page]', m.text()));
      page.on('response', (r) => r.status() >= 400 && console.log('[http]', r.status(), r.url()));
    }
    return page;
  }

  /** Another tab of the same person (same cookies). */
  anotherTab(page: Page): Promise<Page> {
    return page.context().newPage();
  }

  async close(): Promise<void> {
    for (const context of this.contexts) await context.close();
  }
}

/** Clicks a form button and waits for the page it leads to. */
export async function press(page: Page, name: string): Promise<void> {
  await Promise.all([
    page.waitForEvent('framenavigated'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  await page.waitForLoadState();
}

/** Marks the document, so that a later check shows the page was never reloaded or left. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.sameDocument = 'unchanged';
  });
}

export async function assertSameDocument(page: Page): Promise<void> {
  const mark = await page.evaluate(() => window.sameDocument);
  assert.equal(mark, 'unchanged', 'the page was reloaded or left');
}

export async function identifyInterviewer(page: Page, lobbyUrl: string, email: string) {
  await page.goto(lobbyUrl);
  await page.getByLabel('Email').fill(email);
  await press(page, 'Continue');
}

/** From the room page: past the device preview and into the room. */
export async function joinRoom(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Join the interview' }).click();
  await page.locator('#room-stage').waitFor({ state: 'visible' });
}

/** Waits until the page plays `count` other people's video (assertVideosPlay). */
export async function assertPlaysVideoOf(page: Page, count: number): Promise<void> {
  await assertVideosPlay(page, '#videos .tile:not(.mine) video', count);
}

/**
 * Waits until exactly `count` videos match `selector` and every one plays: not paused, a frame
 * to show (`readyState` ≥ 2, HAVE_CURRENT_DATA), frames decoded (`videoWidth > 0`), and playback
 * moving on (`currentTime` advances).
 */
export async function assertVideosPlay(page: Page, selector: string, count = 1): Promise<void> {
  await page
    .waitForFunction(
      ({ selector, count }) => {
        const videos = [...document.querySelectorAll(selector)];
        return (
          videos.length === count &&
          videos.every(
            (video: any) => !video.paused && video.readyState >= 2 && video.videoWidth > 0,
          )
        );
      },
      { selector, count },
      // On a timer: a busy page can go long without an animation frame, Playwright's default.
      { polling: 250 },
    )
    .catch(async (error: Error) => {
      throw new Error(
        `${count} playing videos (${selector}) expected, found ${await describeVideos(page, selector)}: ${error.message}`,
        { cause: error },
      );
    });
  const first: number[] = await page.evaluate(
    (selector) => [...document.querySelectorAll(selector)].map((v: any) => v.currentTime),
    selector,
  );
  await page
    .waitForFunction(
      ({ selector, first }) =>
        [...document.querySelectorAll(selector)].every(
          (video: any, index: number) => !video.paused && video.currentTime > first[index]!,
        ),
      { selector, first },
      { polling: 250 },
    )
    .catch((error: Error) => {
      throw new Error(`a video is frozen: ${error.message}`, { cause: error });
    });
}

/** What the videos matching `selector` are doing, for a failure's message. */
function describeVideos(page: Page, selector: string): Promise<string> {
  return page
    .evaluate(
      (selector) =>
        JSON.stringify(
          [...document.querySelectorAll(selector)].map((video: any) => ({
            paused: video.paused,
            readyState: video.readyState,
            videoWidth: video.videoWidth,
            currentTime: video.currentTime,
          })),
        ),
      selector,
    )
    .catch((error: Error) => `nothing readable (${error.message})`);
}

/**
 * Resolves once `page` has received `count` responses that `matches` accepts (counted from
 * now), or rejects after BROWSER_WAIT_MS (the page's default).
 */
export function responsesSeen(
  page: Page,
  count: number,
  matches: (response: Response) => boolean,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const stop = () => {
      page.off('response', listener);
      clearTimeout(timer);
    };
    const listener = (response: Response) => {
      if (!matches(response) || ++seen < count) return;
      stop();
      resolve();
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${seen} of ${count} expected responses within ${BROWSER_WAIT_MS} ms`));
    }, BROWSER_WAIT_MS);
    page.on('response', listener);
  });
}

/** Waits until the page hears `count` other people: audio elements with live audio tracks. */
export async function assertHearsAudioOf(page: Page, count: number): Promise<void> {
  await page.waitForFunction((count) => {
    const elements = [...document.querySelectorAll('#videos .tile:not(.mine) audio')];
    return (
      elements.length === count &&
      elements.every((element: any) => {
        const stream = element.srcObject as any;
        return stream?.getAudioTracks().some((track: any) => track.readyState === 'live');
      })
    );
  }, count);
  // Every peer connection reports itself connected in the participant list.
  await page.waitForFunction(
    (count) =>
      [...document.querySelectorAll('#participants li')].filter((item: any) =>
        / · connected( · |$)/.test(item.textContent),
      ).length >= count,
    count,
  );
}

/**
 * The duration the browser finds in a WebM file at `url` (MediaRecorder writes no duration in
 * the header, so the browser learns it by seeking to the end).
 */
export async function mediaDuration(page: Page, url: string): Promise<number> {
  return page.evaluate(async (url) => {
    const video = document.createElement('video');
    video.muted = true;
    video.preload = 'auto';
    video.src = url;
    await new Promise((resolve, reject) => {
      video.onloadedmetadata = resolve;
      video.onerror = () => reject(new Error(`cannot load ${url}: ${video.error?.message}`));
    });
    if (!Number.isFinite(video.duration)) {
      video.currentTime = 1e9;
      await new Promise((resolve) => (video.ontimeupdate = resolve));
    }
    return video.duration;
  }, url);
}
