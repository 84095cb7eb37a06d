import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';

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
    page.setDefaultTimeout(15_000);
    return page;
  }

  /** Another tab of the same person (same cookies). */
  async anotherTab(page: Page): Promise<Page> {
    const tab = await page.context().newPage();
    tab.setDefaultTimeout(15_000);
    return tab;
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

/**
 * Waits until the page plays `count` other people's video: frames decode (`videoWidth > 0`)
 * and playback moves on (`currentTime` advances).
 */
export async function assertPlaysVideoOf(page: Page, count: number): Promise<void> {
  const selector = '#videos .tile:not(.mine) video';
  await page.waitForFunction(
    ({ selector, count }) => {
      const videos = [...document.querySelectorAll(selector)];
      return videos.length === count && videos.every((video: any) => video.videoWidth > 0);
    },
    { selector, count },
    { timeout: 20_000 },
  );
  const times = () =>
    page.evaluate(
      (selector) => [...document.querySelectorAll(selector)].map((v: any) => v.currentTime),
      selector,
    );
  const first = await times();
  await page.waitForTimeout(800);
  const later = await times();
  later.forEach((time, index) => assert.ok(time > first[index]!, `video ${index} is frozen`));
}

/** Waits until the page hears `count` other people: audio elements with live audio tracks. */
export async function assertHearsAudioOf(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (count) => {
      const elements = [...document.querySelectorAll('#videos .tile:not(.mine) audio')];
      return (
        elements.length === count &&
        elements.every((element: any) => {
          const stream = element.srcObject as any;
          return stream?.getAudioTracks().some((track: any) => track.readyState === 'live');
        })
      );
    },
    count,
    { timeout: 20_000 },
  );
  // Every peer connection reports itself connected in the participant list.
  await page.waitForFunction(
    (count) =>
      [...document.querySelectorAll('#participants li')].filter((item: any) =>
        / · connected( · |$)/.test(item.textContent),
      ).length >= count,
    count,
    { timeout: 20_000 },
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
