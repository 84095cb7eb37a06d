import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { CREATE_EVENT, INTERVIEWER, eventStartingSoon } from '../room/conduct-interview.js';
import type { TestDatabase } from './databases.js';
import { LiveClient, type LiveOptions, type RefusedUpgrade } from './live-client.js';
import { interviewerCookie, postLobbyStep } from './lobby-forms.js';
import { createOAuthTenant } from './oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { TokenRequests } from './token-requests.js';

export interface RoomEvent {
  id: string;
  /** Path of the interviewers' lobby. */
  interviewer: string;
  /** Path of the interviewee's lobby. */
  interviewee: string;
}

/**
 * The interview room of the production default (a cluster of two workers) as a test drives it
 * over real sockets: events created through the API, lobby steps posted as a browser does, and
 * live connections that the cluster spreads over its workers.
 */
export class RoomCluster {
  private readonly clients: LiveClient[] = [];

  private constructor(
    readonly service: ServiceProcess,
    private readonly accessToken: string,
  ) {}

  static async start(database: TestDatabase, env: Record<string, string> = {}) {
    const service = await startServiceProcess(database, env, 'cluster');
    try {
      const tenant = await createOAuthTenant(database.db, systemClock, 'room');
      const issued = await new TokenRequests(service.url, {
        client_id: tenant.app.client_id,
        secret: tenant.app.secret,
      }).clientCredentials(tenant.employer.id);
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      return new RoomCluster(service, issued.body.access_token as string);
    } catch (error) {
      await service.stop();
      throw error;
    }
  }

  get url(): string {
    return this.service.url;
  }

  async createEvent(extra: Record<string, unknown> = {}): Promise<RoomEvent> {
    const created = await fetch(`${this.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: CREATE_EVENT, variables: { input: eventStartingSoon(extra) } }),
    });
    const body = (await created.json()) as any;
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const event = body.data.createVirtualInterviewEvent.event;
    return {
      id: event.id,
      interviewer: new URL(event.interviewerLobbyUrl).pathname,
      interviewee: new URL(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl)
        .pathname,
    };
  }

  /** The identity cookie of an invited interviewer (`INTERVIEWER` unless named). */
  interviewerCookie(event: RoomEvent, email = INTERVIEWER): Promise<string> {
    return interviewerCookie(this.url, event.interviewer, email);
  }

  /** The interviewee checks in and is admitted; returns the admitting interviewer's cookie. */
  async admit(event: RoomEvent): Promise<string> {
    await postLobbyStep(this.url, event.interviewee, 'check-in');
    const cookie = await this.interviewerCookie(event);
    await postLobbyStep(this.url, event.interviewer, 'admit', cookie);
    return cookie;
  }

  /** Opens a live connection and waits for its greeting; closed by `closeAll`. */
  async live(path: string, cookie?: string, options: LiveOptions = {}): Promise<LiveClient> {
    const opened = await this.open(path, cookie, options);
    if (!(opened instanceof LiveClient)) {
      throw new Error(`the live connection was refused with ${opened.status}: ${opened.body}`);
    }
    await opened.next('hello', undefined, 20_000);
    return opened;
  }

  /** Opens a live connection, or tells how the service refused it. */
  async open(
    path: string,
    cookie?: string,
    options: LiveOptions = {},
  ): Promise<LiveClient | RefusedUpgrade> {
    const opened = await LiveClient.open(
      `${this.url}${path}/live`,
      cookie ? { cookie } : {},
      options,
    );
    if (opened instanceof LiveClient) this.clients.push(opened);
    return opened;
  }

  /** Joins the room on `client` and returns its connection id. */
  async join(client: LiveClient, video = false): Promise<string> {
    client.send({ type: 'join', video });
    const room = await client.next('room', undefined, 20_000);
    return room.you.id as string;
  }

  async closeAll(): Promise<void> {
    const clients = this.clients.splice(0);
    await Promise.all(
      clients.map(async (client) => {
        client.resumeReading();
        client.terminate();
        await client.closed;
      }),
    );
  }

  async stop(): Promise<void> {
    await this.closeAll();
    await this.service.stop();
  }
}

/** Lines of the service's output logged at error level or above (pino: 50 and 60). */
export function errorLines(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => /"level":(5|6)0\b|TypeError|duplicate key|UNIQUE constraint/.test(line));
}

/** Polls `read` until `done` holds for what it returned, or the deadline passes; returns the last. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
