import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../src/db/database.js';
import { insertEventGraph } from '../support/interview-fixtures.js';

/** A fresh RECORDINGS_DIR for one test. */
export function temporaryRecordingsDir(): string {
  return mkdtempSync(join(tmpdir(), 'hpa-recordings-'));
}

/**
 * Keeps cookies by name, the way a browser sends them back to the lobby's paths, and reads the
 * CSRF token of the page it last loaded.
 */
export class LobbyBrowser {
  private readonly cookies = new Map<string, string>();
  csrfToken = '';

  constructor(readonly base: string) {}

  async request(
    path: string,
    init: { method?: string; body?: RequestInit['body']; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const response = await fetch(`${this.base}${path}`, {
      method: init.method ?? 'GET',
      body: init.body,
      headers: { cookie: this.cookieHeader(), ...init.headers },
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [name = '', value = ''] = (line.split(';')[0] ?? '').split('=');
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return response;
  }

  /** Loads a page and keeps its CSRF token. */
  async open(path: string): Promise<string> {
    const body = await (await this.request(path)).text();
    this.csrfToken = /name="csrf_token" value="([^"]+)"/.exec(body)?.[1] ?? this.csrfToken;
    return body;
  }

  /** Posts a lobby form with the page's CSRF token; answers the status. */
  async submit(path: string, fields: Record<string, string> = {}): Promise<number> {
    const response = await this.request(path, {
      method: 'POST',
      body: new URLSearchParams({ ...fields, csrf_token: this.csrfToken }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await response.arrayBuffer();
    return response.status;
  }

  forget(name: string): void {
    this.cookies.delete(name);
  }

  /** The `Cookie` header this browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface InterviewInProgress {
  eventId: string;
  recordIdBefore: string;
  interviewerPath: string;
  intervieweePath: string;
  /** The interviewers' emails (identify with them). */
  emails: [string, string];
}

/**
 * An event of `tenant` that started five minutes ago and ends in forty, whose interviewee (after
 * an earlier, closed record) is invited again and has not checked in yet.
 */
export async function insertOpenEvent(
  db: Database,
  tenant: { employerId: string; appId: string; userId: string },
): Promise<InterviewInProgress> {
  const graph = await insertEventGraph(db, tenant, Date.now() - 5 * 60_000);
  await db('interviewees').where({ id: graph.interviewee.id }).update({ status: 'RSVPED' });
  return {
    eventId: graph.event.id,
    recordIdBefore: graph.record.id,
    interviewerPath: `/lobby/interviewer/${graph.tokens.interviewer}`,
    intervieweePath: `/lobby/interviewee/${graph.tokens.interviewee}`,
    emails: ['lee@example.com', 'sam@example.com'],
  };
}

/** An interviewer's browser on the lobby page, identified as `email`. */
export async function interviewerBrowser(
  base: string,
  event: InterviewInProgress,
  email: string,
): Promise<LobbyBrowser> {
  const browser = new LobbyBrowser(base);
  await browser.open(event.interviewerPath);
  const status = await browser.submit(`${event.interviewerPath}/identify`, { email });
  if (status !== 303) throw new Error(`identify answered ${status}`);
  await browser.open(event.interviewerPath);
  return browser;
}

/** The interviewee checks in and `interviewer` admits them: the event has an open record. */
export async function admitInterviewee(
  base: string,
  event: InterviewInProgress,
  interviewer: LobbyBrowser,
): Promise<void> {
  const interviewee = new LobbyBrowser(base);
  await interviewee.open(event.intervieweePath);
  const checkIn = await interviewee.submit(`${event.intervieweePath}/check-in`);
  if (checkIn !== 303) throw new Error(`check-in answered ${checkIn}`);
  const admit = await interviewer.submit(`${event.interviewerPath}/admit`);
  if (admit !== 303) throw new Error(`admit answered ${admit}`);
}

/** A chunk upload's answer, read whole. */
export interface ChunkAnswer {
  status: number;
  retryAfter: string | undefined;
  body: { error?: string; expectedSeq?: number };
}

/** The recording API as the lobby page's script calls it. */
export class RecordingClient {
  constructor(
    private readonly browser: LobbyBrowser,
    private readonly lobbyPath: string,
  ) {}

  start(csrf = this.browser.csrfToken): Promise<Response> {
    return this.browser.request(`${this.lobbyPath}/recordings`, {
      method: 'POST',
      headers: csrf === '' ? {} : { 'x-csrf-token': csrf },
    });
  }

  chunk(id: string, seq: number | string, data: Uint8Array): Promise<Response> {
    return this.browser.request(`${this.lobbyPath}/recordings/${id}/chunks/${seq}`, {
      method: 'PUT',
      body: data,
      headers: {
        'x-csrf-token': this.browser.csrfToken,
        'content-type': 'application/octet-stream',
      },
    });
  }

  /**
   * The chunk on a connection of its own, closed after the answer: requests sent at once reach
   * different cluster workers, as a browser's retry on a new connection may.
   */
  chunkOnOwnConnection(id: string, seq: number, data: Uint8Array): Promise<ChunkAnswer> {
    const url = new URL(`${this.browser.base}${this.lobbyPath}/recordings/${id}/chunks/${seq}`);
    return new Promise((resolve, reject) => {
      const sent = request(
        url,
        {
          method: 'PUT',
          agent: false,
          headers: {
            cookie: this.browser.cookieHeader(),
            'x-csrf-token': this.browser.csrfToken,
            'content-type': 'application/octet-stream',
            'content-length': data.length,
          },
        },
        (response) => {
          const parts: Buffer[] = [];
          response.on('data', (part: Buffer) => parts.push(part));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(parts).toString();
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers['retry-after'],
              body:
                text && /json/.test(response.headers['content-type'] ?? '')
                  ? (JSON.parse(text) as ChunkAnswer['body'])
                  : {},
            });
          });
        },
      );
      sent.on('error', reject);
      sent.end(data);
    });
  }

  stop(id: string): Promise<Response> {
    return this.browser.request(`${this.lobbyPath}/recordings/${id}/stop`, {
      method: 'POST',
      headers: { 'x-csrf-token': this.browser.csrfToken },
    });
  }

  /** Starts a recording and answers its id; fails the test when refused. */
  async started(): Promise<string> {
    const response = await this.start();
    const body = (await response.json()) as { id?: string; error?: string };
    if (response.status !== 201 || !body.id) {
      throw new Error(`start answered ${response.status}: ${JSON.stringify(body)}`);
    }
    return body.id;
  }
}
