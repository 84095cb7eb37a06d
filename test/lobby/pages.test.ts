import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { DecisionValue, LobbyRole } from '../../src/interviews/vocabulary.js';
import { errorHandler, notFound } from '../../src/http/errors.js';
import { requestContext } from '../../src/http/request-context.js';
import {
  TransitionRefused,
  type InterviewLifecycle,
  type LobbyAccess,
  type LobbyView,
} from '../../src/interviews/lifecycle/interview-lifecycle.js';
import { INTERVIEWER_NAME_MAX } from '../../src/interviews/rules/interviewers.js';
import { requiredText } from '../../src/interviews/rules/text.js';
import { InterviewerIdentities } from '../../src/lobby/interviewer-identity.js';
import { lobbyRouter } from '../../src/lobby/router.js';
import { CsrfTokens } from '../../src/sessions/csrf.js';
import { randomToken } from '../../src/security/random.js';
import type { Principal } from '../../src/oauth/principal.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { silentLogger } from '../support/logger.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';

const SECRET = 'lobby-page-test-secret-0123456789abcdef';

/**
 * A small in-memory lifecycle: one event, enough state to drive the pages, and a log of every
 * call so a test can tell that a refused form reached nothing.
 */
class FakeLifecycle implements InterviewLifecycle {
  readonly calls: string[] = [];
  readonly tokens: Record<LobbyRole, string> = {
    landing: randomToken(),
    interviewer: randomToken(),
    interviewee: randomToken(),
  };
  /** When set, the next transition is refused with this message. */
  refuseWith: string | null = null;
  readonly state: LobbyView;

  constructor(title = 'Backend engineer – first round') {
    this.state = {
      asOf: Date.UTC(2026, 11, 1, 12, 0),
      event: {
        id: randomUUID(),
        title,
        startAt: Date.UTC(2026, 11, 1, 14, 0),
        endAt: Date.UTC(2026, 11, 1, 15, 0),
        startOffsetMinutes: -300,
        endOffsetMinutes: -300,
        timezone: 'America/New_York',
        status: 'SCHEDULED',
        startedAt: null,
        mediaType: 'VIDEO',
        employerName: null,
        createdAt: Date.UTC(2026, 10, 1),
        updatedAt: Date.UTC(2026, 10, 1),
      },
      interviewers: [
        { id: randomUUID(), email: 'Lee@Example.com', name: 'Lee' },
        { id: randomUUID(), email: 'sam@example.com', name: null },
      ],
      interviewee: { id: randomUUID(), name: 'Casey Candidate', status: 'RSVPED', job: null },
      records: [],
      links: {
        landingPageUrl: `http://pages.test/interviews/${this.tokens.landing}`,
        interviewerLobbyUrl: `http://pages.test/lobby/interviewer/${this.tokens.interviewer}`,
        intervieweeLobbyUrl: `http://pages.test/lobby/interviewee/${this.tokens.interviewee}`,
      },
    };
  }

  /** Calls that change something (everything but reads). */
  get transitions(): string[] {
    return this.calls.filter((call) => !/^(access|view|findInterviewer)\b/.test(call));
  }

  async access(role: LobbyRole, token: string): Promise<LobbyAccess | null> {
    this.calls.push(`access:${role}`);
    if (this.tokens[role] !== token) return null;
    const intervieweeId = role === 'interviewee' ? this.state.interviewee!.id : null;
    return { role, eventId: this.state.event.id, intervieweeId };
  }

  async view(eventId: string): Promise<LobbyView> {
    this.calls.push('view');
    assert.equal(eventId, this.state.event.id);
    return structuredClone(this.state);
  }

  async findInterviewer(eventId: string, email: string) {
    this.calls.push('findInterviewer');
    assert.equal(eventId, this.state.event.id);
    const wanted = email.toLowerCase();
    return this.state.interviewers.find((one) => one.email.toLowerCase() === wanted) ?? null;
  }

  async nameInterviewer(eventId: string, interviewerId: string, name: string): Promise<void> {
    this.transition(`nameInterviewer:${interviewerId}:${name}`, eventId);
    const text = requiredText(name, 'name', INTERVIEWER_NAME_MAX);
    this.state.interviewers.find((one) => one.id === interviewerId)!.name = text;
  }

  async checkIn(eventId: string, intervieweeId: string): Promise<void> {
    this.transition('checkIn', eventId);
    assert.equal(intervieweeId, this.state.interviewee!.id);
    this.state.interviewee!.status = 'CHECKED_IN';
    this.state.event.status = 'STARTED';
  }

  async admit(eventId: string, interviewerId: string): Promise<void> {
    this.transition(`admit:${interviewerId}`, eventId);
    this.state.interviewee!.status = 'INTERVIEWING';
    this.state.records.push({ id: randomUUID(), startAt: Date.now(), endAt: null, outcomes: [] });
  }

  async sendBack(eventId: string, interviewerId: string): Promise<void> {
    this.transition(`sendBack:${interviewerId}`, eventId);
    this.state.interviewee!.status = 'REQUEUED';
    this.state.records.at(-1)!.endAt = Date.now();
  }

  async endInterview(eventId: string, interviewerId: string): Promise<void> {
    this.transition(`endInterview:${interviewerId}`, eventId);
    this.state.interviewee!.status = 'INTERVIEWED';
    this.state.records.at(-1)!.endAt = Date.now();
  }

  async recordDecision(
    eventId: string,
    interviewerId: string,
    recordId: string,
    decision: DecisionValue,
    note: string | null,
  ): Promise<void> {
    this.transition(`recordDecision:${interviewerId}:${decision}:${note}`, eventId);
    const record = this.state.records.find((candidate) => candidate.id === recordId);
    if (!record) throw new TransitionRefused('That interview is not part of this event.');
    record.outcomes = record.outcomes.filter((outcome) => outcome.interviewerId !== interviewerId);
    record.outcomes.push({ interviewerId, decision, note });
  }

  async endEvent(eventId: string, interviewerId: string): Promise<void> {
    this.transition(`endEvent:${interviewerId}`, eventId);
    this.state.event.status = 'ENDED';
  }

  private transition(call: string, eventId: string): void {
    this.calls.push(call);
    assert.equal(eventId, this.state.event.id);
    const refusal = this.refuseWith;
    this.refuseWith = null;
    if (refusal) throw new TransitionRefused(refusal);
  }
}

/** Remembers cookies per path, the way a browser sends them back. */
class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const [name = '', value = ''] = pair.split('=');
      const path = attributes.find((a) => a.startsWith('Path='))?.slice(5) ?? '/';
      const key = `${name}@${path}`;
      if (value === '' || /Max-Age=0/.test(line)) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  header(address: string): string {
    const path = address.split('?')[0]!;
    return [...this.cookies.entries()]
      .filter(
        ([, cookie]) =>
          path === cookie.path || path.startsWith(`${cookie.path}/`) || cookie.path === '/',
      )
      .map(([key, cookie]) => `${key.split('@')[0]}=${cookie.value}`)
      .join('; ');
  }

  set(name: string, path: string, value: string): void {
    this.cookies.set(`${name}@${path}`, { value, path });
  }

  get(name: string, path: string): string | undefined {
    return this.cookies.get(`${name}@${path}`)?.value;
  }
}

/** The pages in a tiny app of their own, the way src/app.ts mounts them. */
async function startPages(lifecycle: InterviewLifecycle) {
  const config = loadConfig({ PUBLIC_URL: 'http://pages.test', LOG_LEVEL: 'silent' });
  const app = express();
  app.use(requestContext(silentLogger));
  app.use(
    lobbyRouter({
      lifecycle,
      config,
      csrf: new CsrfTokens(SECRET, { secure: false }),
      identities: new InterviewerIdentities(SECRET, systemClock, { secure: false }),
      // No limit on wrong emails here; the real service's limit has its own tests.
      identifyLimiter: {
        isBlocked: async () => ({ allowed: true }),
        consume: async () => ({ allowed: true }),
      },
    }),
  );
  app.use(notFound);
  app.use(errorHandler);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

/** A browser-like client: keeps cookies, reads the CSRF token of the page it last loaded. */
class Visitor {
  readonly jar = new CookieJar();
  csrfToken = '';

  constructor(private readonly base: string) {}

  async get(path: string): Promise<{ response: Response; body: string }> {
    const response = await fetch(`${this.base}${path}`, {
      headers: { cookie: this.jar.header(path) },
      redirect: 'manual',
    });
    this.jar.take(response);
    const body = await response.text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrfToken = token;
    return { response, body };
  }

  async post(
    path: string,
    fields: Record<string, string> = {},
    options: { csrf?: string | null } = {},
  ): Promise<{ response: Response; body: string }> {
    const form = new URLSearchParams(fields);
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    if (csrf !== null) form.set('csrf_token', csrf);
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: {
        cookie: this.jar.header(path),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form,
      redirect: 'manual',
    });
    this.jar.take(response);
    return { response, body: await response.text() };
  }
}

/** The text of the page's role="alert" summary, if it has one. */
function alertText(body: string): string | undefined {
  return /role="alert">([\s\S]*?)<\/div>/
    .exec(body)?.[1]
    ?.replace(/<[^>]+>/g, ' ')
    .trim();
}

function decoded(html: string): string {
  return html
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function altered(token: string): string {
  const last = token.at(-1) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -1)}${last}`;
}

describe('interview pages (over HTTP, with an in-memory lifecycle)', () => {
  let lifecycle: FakeLifecycle;
  let pages: Awaited<ReturnType<typeof startPages>>;
  let visitor: Visitor;

  const landingPath = () => `/interviews/${lifecycle.tokens.landing}`;
  const intervieweePath = () => `/lobby/interviewee/${lifecycle.tokens.interviewee}`;
  const interviewerPath = () => `/lobby/interviewer/${lifecycle.tokens.interviewer}`;

  beforeEach(async () => {
    lifecycle = new FakeLifecycle();
    pages = await startPages(lifecycle);
    visitor = new Visitor(pages.url);
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => pages.server.close(() => resolve()));
  });

  /** Identifies the visitor in the interviewer lobby as `email`. */
  async function identify(email = 'lee@example.com') {
    await visitor.get(interviewerPath());
    const { response } = await visitor.post(`${interviewerPath()}/identify`, { email });
    assert.equal(response.status, 303);
    return visitor.get(interviewerPath());
  }

  describe('links that do not open anything', () => {
    it('answer one identical 404 page for wrong, altered and other-kind tokens', async () => {
      const { tokens } = lifecycle;
      const paths = [
        `/interviews/${randomToken()}`,
        `/interviews/${altered(tokens.landing)}`,
        `/interviews/${tokens.interviewer}`,
        `/interviews/${tokens.interviewee}`,
        `/lobby/interviewee/${randomToken()}`,
        `/lobby/interviewee/${altered(tokens.interviewee)}`,
        `/lobby/interviewee/${tokens.landing}`,
        `/lobby/interviewee/${tokens.interviewer}`,
        `/lobby/interviewer/${randomToken()}`,
        `/lobby/interviewer/${altered(tokens.interviewer)}`,
        `/lobby/interviewer/${tokens.interviewee}`,
        `/lobby/interviewer/${tokens.landing}`,
        '/lobby/interviewer/not-a-token',
        `/lobby/interviewer/${tokens.interviewer}/no-such-page`,
        '/interviews/',
      ];
      const bodies = new Set<string>();
      for (const path of paths) {
        const { response, body } = await visitor.get(path);
        assert.equal(response.status, 404, path);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
        assert.equal(response.headers.get('cache-control'), 'no-store', path);
        assert.equal(response.headers.get('referrer-policy'), 'no-referrer', path);
        assert.equal(response.headers.get('set-cookie'), null, `${path} sets no cookie`);
        bodies.add(body);
      }
      assert.equal(bodies.size, 1, 'every 404 has the same body');
      const [body] = bodies;
      assert.match(body!, /This link does not work/);
      for (const token of Object.values(tokens)) assert.ok(!body!.includes(token));
    });

    it('lead a form address opened later back to its page, and nowhere for a wrong link', async () => {
      for (const path of [`${interviewerPath()}/identify`, `${intervieweePath()}/check-in`]) {
        const { response } = await visitor.get(path);
        assert.equal(response.status, 303, path);
        assert.equal(response.headers.get('location'), path.slice(0, path.lastIndexOf('/')));
      }
      const { response } = await visitor.get(`/lobby/interviewer/${randomToken()}/admit`);
      assert.equal(response.status, 404);
      assert.deepEqual(lifecycle.transitions, []);
    });

    it('answer the same 404 to a form posted with a valid CSRF token to a wrong link', async () => {
      const { body: notFoundBody } = await visitor.get(`/interviews/${randomToken()}`);
      await visitor.get(intervieweePath());
      const { response, body } = await visitor.post(
        `/lobby/interviewee/${altered(lifecycle.tokens.interviewee)}/check-in`,
      );
      assert.equal(response.status, 404);
      assert.equal(body, notFoundBody);
      assert.deepEqual(lifecycle.transitions, []);
    });
  });

  describe('headers and escaping', () => {
    it('marks every page no-store and no-referrer', async () => {
      for (const path of [landingPath(), intervieweePath(), interviewerPath()]) {
        const { response } = await visitor.get(path);
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get('cache-control'), 'no-store');
        assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      }
    });

    it('prints a title with markup as text on every page', async () => {
      const hostile = '<script>alert("x")</script> & <b>bold</b>';
      lifecycle.state.event.title = hostile;
      lifecycle.state.interviewee!.name = '<img src=x onerror=alert(1)>';
      for (const path of [landingPath(), intervieweePath(), interviewerPath()]) {
        const { body } = await visitor.get(path);
        assert.ok(!body.includes('<script>'), `${path} has no script element`);
        assert.ok(!body.includes('<b>bold'), path);
        assert.ok(body.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; '), path);
      }
      const { body } = await visitor.get(intervieweePath());
      assert.ok(!body.includes('<img'));
      assert.ok(body.includes('&lt;img src=x onerror=alert(1)&gt;'));
    });

    it('carries no inline script or style', async () => {
      await identify();
      for (const path of [landingPath(), intervieweePath(), interviewerPath()]) {
        const { body } = await visitor.get(path);
        // External scripts from /assets are allowed (CSP script-src 'self'); inline code is not.
        assert.doesNotMatch(
          body,
          /<script(?![^>]*\ssrc="\/assets\/[a-z-]+\.js")|<style|\sstyle=|\son[a-z]+=/i,
          path,
        );
        assert.doesNotMatch(body, /<script[^>]*>[^<]+<\/script>/i, path);
        assert.match(body, /<html lang="en">/);
      }
    });
  });

  describe('the landing page', () => {
    it('shows the title, the time in the event zone and in UTC, the status and both lobbies', async () => {
      const { response, body } = await visitor.get(landingPath());
      assert.equal(response.status, 200);
      const text = decoded(body);
      assert.match(text, /<h1>Backend engineer – first round<\/h1>/);
      assert.match(
        text,
        /<time datetime="2026-12-01T14:00:00.000Z">Tuesday, December 1, 2026 at 9:00 AM<\/time>/,
      );
      assert.match(text, /<time datetime="2026-12-01T15:00:00.000Z">10:00 AM<\/time>/);
      assert.match(text, /Eastern Standard Time \(America\/New_York\)/);
      assert.match(text, /Tuesday, December 1, 2026 at 2:00 PM<\/time>\s*to <time[^>]*>3:00 PM/);
      assert.match(text, /Scheduled/);
      assert.ok(text.includes(`href="${lifecycle.state.links.intervieweeLobbyUrl}"`));
      assert.ok(text.includes(`href="${lifecycle.state.links.interviewerLobbyUrl}"`));
    });

    it('says plainly that a cancelled event is cancelled, and links nowhere', async () => {
      lifecycle.state.event.status = 'CANCELLED';
      const { body } = await visitor.get(landingPath());
      assert.match(body, /This interview event was cancelled/);
      assert.ok(!body.includes('/lobby/'));
    });

    it('says plainly that an archived event is over', async () => {
      lifecycle.state.event.status = 'ARCHIVED';
      const { body } = await visitor.get(landingPath());
      assert.match(body, /has ended and is archived/);
    });
  });

  describe('the interviewee lobby', () => {
    it('checks in with a CSRF-protected form, then redirects 303 to the page', async () => {
      const before = await visitor.get(intervieweePath());
      assert.match(before.body, /You have not checked in yet/);
      assert.match(before.body, />Check in<\/button>/);

      const { response } = await visitor.post(`${intervieweePath()}/check-in`);
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), intervieweePath());
      assert.deepEqual(lifecycle.transitions, ['checkIn']);

      const after = await visitor.get(intervieweePath());
      assert.match(after.body, /You are checked in and waiting in the lobby/);
      assert.doesNotMatch(after.body, />Check in<\/button>/);
    });

    it('offers a camera and microphone check while the interviewee may still join', async () => {
      const check = async () => {
        const { body } = await visitor.get(intervieweePath());
        const script = body.includes('<script type="module" src="/assets/device-check.js">');
        const section = /<section id="device-check"[^>]*data-video="(true|false)"[^>]*hidden>/.exec(
          body,
        );
        assert.equal(script, Boolean(section), 'the script comes with its section');
        return section ? { video: section[1] === 'true', body } : null;
      };
      const waiting = await check();
      assert.equal(waiting?.video, true);
      assert.match(waiting.body, /<video id="device-check-video"/);
      assert.match(waiting.body, /<meter id="device-check-level"/);

      lifecycle.state.event.mediaType = 'PHONE';
      const phone = await check();
      assert.equal(phone?.video, false);
      assert.match(phone.body, /Check your microphone/);
      assert.doesNotMatch(phone.body, /<video|device-check-camera/);

      lifecycle.state.interviewee!.status = 'INTERVIEWED';
      assert.equal(await check(), null, 'nothing left to join');
      lifecycle.state.interviewee!.status = 'CHECKED_IN';
      lifecycle.state.event.status = 'ENDED';
      assert.equal(await check(), null, 'the event is over');
    });

    it('refuses a form without a valid CSRF token with 403 and calls nothing', async () => {
      await visitor.get(intervieweePath());
      const cases: Array<string | null> = [null, '', 'forged', altered(visitor.csrfToken)];
      for (const csrf of cases) {
        const { response, body } = await visitor.post(
          `${intervieweePath()}/check-in`,
          {},
          { csrf },
        );
        assert.equal(response.status, 403, String(csrf));
        assert.match(body, /This form has expired/);
      }
      // A token from another browser does not fit this browser's cookie.
      const other = new Visitor(pages.url);
      await other.get(intervieweePath());
      const { response } = await visitor.post(
        `${intervieweePath()}/check-in`,
        {},
        { csrf: other.csrfToken },
      );
      assert.equal(response.status, 403);
      assert.deepEqual(lifecycle.calls, [
        'access:interviewee',
        'view',
        'access:interviewee',
        'view',
      ]);
    });

    it('shows why a cancelled event cannot be joined, and answers a refused check-in with 409', async () => {
      await visitor.get(intervieweePath());
      lifecycle.state.event.status = 'CANCELLED';
      lifecycle.state.interviewee!.status = 'CANCELLED';
      const page = await visitor.get(intervieweePath());
      assert.match(page.body, /This interview event was cancelled/);
      assert.doesNotMatch(page.body, />Check in<\/button>/);

      lifecycle.refuseWith =
        'This interview event was cancelled, so there is no lobby to check in to.';
      const { response, body } = await visitor.post(`${intervieweePath()}/check-in`);
      assert.equal(response.status, 409);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(
        alertText(body) ?? '',
        /This interview event was cancelled, so there is no lobby to check in to\./,
      );
      assert.equal(lifecycle.state.interviewee!.status, 'CANCELLED', 'nothing changed');
    });
  });

  describe('the interviewer lobby', () => {
    it('asks for an email first, and says when it is not invited', async () => {
      const first = await visitor.get(interviewerPath());
      assert.match(first.body, /<label for="email">Email<\/label>/);
      assert.match(first.body, />Continue<\/button>/);
      assert.doesNotMatch(first.body, /Admit|End event|Lee@Example\.com|sam@example/);

      const { response, body } = await visitor.post(`${interviewerPath()}/identify`, {
        email: 'stranger@example.com',
      });
      assert.equal(response.status, 403);
      assert.match(alertText(body) ?? '', /This email is not invited to this interview event/);
      assert.doesNotMatch(body, /Lee@Example\.com|sam@example/);
      assert.match(body, /value="stranger@example.com"/);
      assert.equal(visitor.jar.get('hpa_lobby_interviewer', interviewerPath()), undefined);

      const empty = await visitor.post(`${interviewerPath()}/identify`, { email: 'not an email' });
      assert.equal(empty.response.status, 400);
      assert.match(alertText(empty.body) ?? '', /Enter the email address your invitation/);
    });

    it('remembers an invited interviewer in a signed cookie scoped to the lobby', async () => {
      await visitor.get(interviewerPath());
      const { response } = await visitor.post(`${interviewerPath()}/identify`, {
        email: ' LEE@example.com ',
      });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), interviewerPath());
      const cookie = response.headers
        .getSetCookie()
        .find((line) => line.startsWith('hpa_lobby_interviewer='));
      assert.ok(cookie);
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
      assert.match(cookie, new RegExp(`; Path=${interviewerPath()}(;|$)`));
      assert.ok(cookie.includes(lifecycle.state.interviewers[0]!.id));

      const { body } = await visitor.get(interviewerPath());
      assert.match(body, /you are <strong>Lee<\/strong> \(Lee@Example.com\)/);
      assert.match(body, /Casey Candidate<\/strong>: Not checked in yet/);
      assert.match(body, />End event<\/button>/);
    });

    it('asks for a display name with the email, and shows it once given', async () => {
      const sam = lifecycle.state.interviewers[1]!;
      const first = await visitor.get(interviewerPath());
      assert.match(first.body, /<label for="name">Your name<\/label>/);
      assert.match(first.body, /name="name" type="text" autocomplete="name"[^>]*maxlength="100"/);

      const { response } = await visitor.post(`${interviewerPath()}/identify`, {
        email: 'sam@example.com',
        name: '  Sam Okafor ',
      });
      assert.equal(response.status, 303);
      assert.deepEqual(lifecycle.transitions, [`nameInterviewer:${sam.id}:  Sam Okafor `]);
      assert.equal(sam.name, 'Sam Okafor');
      const { body } = await visitor.get(interviewerPath());
      assert.match(body, /you are <strong>Sam Okafor<\/strong> \(sam@example.com\)/);

      // Given once: identifying again without a name keeps it.
      await visitor.post(`${interviewerPath()}/forget`);
      await visitor.get(interviewerPath());
      const again = await visitor.post(`${interviewerPath()}/identify`, {
        email: 'sam@example.com',
        name: '',
      });
      assert.equal(again.response.status, 303);
      assert.equal(lifecycle.transitions.length, 1, 'no name, no change');
      assert.equal(sam.name, 'Sam Okafor');
    });

    it('refuses a name with control characters or too long (400), keeping the form', async () => {
      for (const name of ['Sam\u0007Okafor', 'Sam\nOkafor', 'S'.repeat(INTERVIEWER_NAME_MAX + 1)]) {
        await visitor.get(interviewerPath());
        const { response, body } = await visitor.post(`${interviewerPath()}/identify`, {
          email: 'sam@example.com',
          name,
        });
        assert.equal(response.status, 400, JSON.stringify(name));
        assert.match(
          alertText(body) ?? '',
          /There is a problem\s+Name must (not contain control characters|be at most 100 characters)\.$/,
        );
        assert.match(body, /<label for="name">Your name<\/label>/, 'the form again');
        assert.match(body, /value="sam@example.com"/);
        assert.equal(visitor.jar.get('hpa_lobby_interviewer', interviewerPath()), undefined);
      }
      assert.equal(lifecycle.state.interviewers[1]!.name, null);
    });

    it('shows no name of another interviewer to someone not invited', async () => {
      await visitor.get(interviewerPath());
      const { response, body } = await visitor.post(`${interviewerPath()}/identify`, {
        email: 'stranger@example.com',
        name: 'Mallory',
      });
      assert.equal(response.status, 403);
      assert.deepEqual(lifecycle.transitions, [], 'a stranger names nobody');
      assert.match(body, /value="Mallory"/);
    });

    it('does not accept a cookie altered to name another interviewer', async () => {
      await identify();
      const [lee, sam] = lifecycle.state.interviewers;
      const value = visitor.jar.get('hpa_lobby_interviewer', interviewerPath())!;
      visitor.jar.set('hpa_lobby_interviewer', interviewerPath(), value.replace(lee!.id, sam!.id));
      const { body } = await visitor.get(interviewerPath());
      assert.match(body, /<label for="email">Email<\/label>/);
      const { response } = await visitor.post(`${interviewerPath()}/end-event`);
      assert.equal(response.status, 403);
      assert.deepEqual(lifecycle.transitions, []);
    });

    it('does not accept a cookie signed for another event', async () => {
      await identify();
      const value = visitor.jar.get('hpa_lobby_interviewer', interviewerPath())!;
      const other = new FakeLifecycle();
      other.state.interviewers[0]!.id = lifecycle.state.interviewers[0]!.id;
      const otherPages = await startPages(other);
      try {
        const stranger = new Visitor(otherPages.url);
        const otherPath = `/lobby/interviewer/${other.tokens.interviewer}`;
        stranger.jar.set('hpa_lobby_interviewer', otherPath, value);
        const { body } = await stranger.get(otherPath);
        assert.match(body, /<label for="email">Email<\/label>/);
      } finally {
        await new Promise<void>((resolve) => otherPages.server.close(() => resolve()));
      }
    });

    it('admits, sends back, ends the interview and the event, each answered 303', async () => {
      const QUESTIONS: Partial<Record<string, string>> = {
        'end-interview': 'End this interview?',
        'end-event': 'End the whole event?',
      };
      lifecycle.state.interviewee!.status = 'CHECKED_IN';
      const lee = lifecycle.state.interviewers[0]!.id;
      let page = await identify();
      assert.match(page.body, />Admit<\/button>/);
      for (const [action, button] of [
        ['admit', 'Send back to lobby'],
        ['send-back', 'Admit'],
        ['admit', 'End interview'],
        ['end-interview', 'Save decision'],
        ['end-event', 'This interview event has ended'],
      ] as const) {
        const question = QUESTIONS[action];
        if (question) {
          // Asked first, on a page of its own; nothing happens until it is confirmed.
          const asked = await visitor.post(`${interviewerPath()}/${action}`);
          assert.equal(asked.response.status, 200, action);
          assert.ok(asked.body.includes(question), `${action} asks ${question}`);
          assert.ok(asked.body.includes('name="confirmed" value="yes"'));
        }
        const transitionsBefore = lifecycle.transitions.length;
        const { response } = await visitor.post(
          `${interviewerPath()}/${action}`,
          question ? { confirmed: 'yes' } : {},
        );
        assert.equal(lifecycle.transitions.length, transitionsBefore + 1, action);
        assert.equal(response.status, 303, action);
        assert.equal(response.headers.get('location'), interviewerPath());
        page = await visitor.get(interviewerPath());
        assert.ok(page.body.includes(button), `after ${action} the page shows ${button}`);
      }
      assert.deepEqual(lifecycle.transitions, [
        `admit:${lee}`,
        `sendBack:${lee}`,
        `admit:${lee}`,
        `endInterview:${lee}`,
        `endEvent:${lee}`,
      ]);
      assert.doesNotMatch(page.body, />(Admit|End event|End interview)<\/button>/);
    });

    it('shows a refused step with its message (409) and changes nothing', async () => {
      lifecycle.state.interviewee!.status = 'CHECKED_IN';
      await identify();
      lifecycle.refuseWith = 'The interviewee left the lobby & cannot be admitted <now>.';
      const { response, body } = await visitor.post(`${interviewerPath()}/admit`);
      assert.equal(response.status, 409);
      assert.match(
        alertText(body) ?? '',
        /The interviewee left the lobby &amp; cannot be admitted &lt;now&gt;\./,
      );
      assert.match(body, />Admit<\/button>/, 'the page is shown again');
      assert.equal(lifecycle.state.interviewee!.status, 'CHECKED_IN');
      assert.equal(lifecycle.state.records.length, 0);
    });

    it('records a decision with a note, prefilled afterwards', async () => {
      lifecycle.state.interviewee!.status = 'CHECKED_IN';
      await identify();
      await visitor.post(`${interviewerPath()}/admit`);
      await visitor.post(`${interviewerPath()}/end-interview`, { confirmed: 'yes' });
      const recordId = lifecycle.state.records[0]!.id;
      const lee = lifecycle.state.interviewers[0]!.id;

      const { response } = await visitor.post(`${interviewerPath()}/decision`, {
        record_id: recordId,
        decision: 'MAYBE',
        note: '  Clear thinker; <b>rusty</b> on SQL.  ',
      });
      assert.equal(response.status, 303);
      assert.equal(
        lifecycle.transitions.at(-1),
        `recordDecision:${lee}:MAYBE:Clear thinker; <b>rusty</b> on SQL.`,
      );

      const { body } = await visitor.get(interviewerPath());
      assert.match(body, /value="MAYBE"\s+required checked/);
      assert.match(body, />Clear thinker; &lt;b&gt;rusty&lt;\/b&gt; on SQL.<\/textarea>/);
      assert.match(body, /<label for="record-1-note">Note<\/label>/);
    });

    it('confirms a saved decision in a status message on the page it leads back to', async () => {
      lifecycle.state.interviewee!.status = 'CHECKED_IN';
      await identify();
      await visitor.post(`${interviewerPath()}/admit`);
      const recordId = lifecycle.state.records[0]!.id;
      const before = await visitor.get(interviewerPath());
      assert.doesNotMatch(before.body, /role="status"/);

      const { response } = await visitor.post(`${interviewerPath()}/decision`, {
        record_id: recordId,
        decision: 'YES',
        note: '',
      });
      assert.equal(response.status, 303);
      const location = response.headers.get('location')!;
      assert.equal(location, `${interviewerPath()}?saved=${recordId}`);
      const { body } = await visitor.get(location);
      assert.match(
        body,
        /<p class="notice success-notice" role="status">Your decision on Interview 1 is saved: Yes\.<\/p>/,
      );
      // The plain page, or one naming another record, confirms nothing.
      assert.doesNotMatch((await visitor.get(interviewerPath())).body, /role="status"/);
      const other = await visitor.get(`${interviewerPath()}?saved=${randomUUID()}`);
      assert.doesNotMatch(other.body, /role="status"/);
    });

    it('keeps what was typed when a decision is refused', async () => {
      lifecycle.state.interviewee!.status = 'CHECKED_IN';
      await identify();
      await visitor.post(`${interviewerPath()}/admit`);
      lifecycle.refuseWith = 'Decisions can no longer be changed: the event is archived.';
      const { response, body } = await visitor.post(`${interviewerPath()}/decision`, {
        record_id: lifecycle.state.records[0]!.id,
        decision: 'NO',
        note: 'Typed with care',
      });
      assert.equal(response.status, 409);
      assert.match(alertText(body) ?? '', /Decisions can no longer be changed/);
      assert.match(body, /value="NO"\s+required checked/);
      assert.match(body, />Typed with care<\/textarea>/);
      assert.deepEqual(lifecycle.state.records[0]!.outcomes, []);
    });

    it('refuses a decision that is not one of the four with 400, calling nothing', async () => {
      lifecycle.state.interviewee!.status = 'CHECKED_IN';
      await identify();
      await visitor.post(`${interviewerPath()}/admit`);
      const before = lifecycle.transitions.length;
      const { response, body } = await visitor.post(`${interviewerPath()}/decision`, {
        record_id: lifecycle.state.records[0]!.id,
        decision: 'STRONG_YES',
      });
      assert.equal(response.status, 400);
      assert.match(alertText(body) ?? '', /Choose Yes, No, Maybe or Skip/);
      assert.equal(lifecycle.transitions.length, before);
    });

    it('asks an unidentified browser for its email again instead of acting', async () => {
      await visitor.get(interviewerPath());
      for (const action of ['admit', 'send-back', 'end-interview', 'end-event']) {
        const { response, body } = await visitor.post(`${interviewerPath()}/${action}`);
        assert.equal(response.status, 403, action);
        assert.match(alertText(body) ?? '', /Enter your email address again/);
      }
      assert.deepEqual(lifecycle.transitions, []);
    });

    it('forgets the interviewer on "Use another email"', async () => {
      await identify();
      const { response } = await visitor.post(`${interviewerPath()}/forget`);
      assert.equal(response.status, 303);
      const { body } = await visitor.get(interviewerPath());
      assert.match(body, /<label for="email">Email<\/label>/);
    });
  });
});

describe('interview pages on the real service [sqlite]', () => {
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let principal: Principal;

  before(async () => {
    database = await createTestDatabase('sqlite');
    const tenant = await insertTenant(database.db, 'pages');
    principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'pages-client',
      jti: 'pages-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database, {
      authenticate: async (token) => (token === 'scheduler' ? principal : null),
    });
  });
  after(async () => {
    await service?.stop();
    await database?.dispose();
  });

  async function graphql(query: string, variables: object) {
    const response = await fetch(`${service!.url}/graphql`, {
      method: 'POST',
      headers: { authorization: 'Bearer scheduler', 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data: any; errors?: unknown };
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  }

  /** Schedules an event through the API and returns the paths of its three pages. */
  async function scheduleEvent(title = 'Data engineer – screening') {
    const data = await graphql(
      `
        mutation ($input: CreateVirtualInterviewEventInput!) {
          createVirtualInterviewEvent(input: $input) {
            event {
              id
              interviewerLobbyUrl
              interviewLandingPageUrl
              intervieweesConnection {
                interviewees {
                  intervieweeLobbyUrl
                }
              }
            }
          }
        }
      `,
      {
        input: {
          title,
          startTime: new Date(Date.now() + 3_600_000).toISOString(),
          endTime: new Date(Date.now() + 7_200_000).toISOString(),
          timezone: 'Asia/Kolkata',
          interviewers: [{ email: 'ana@example.com' }],
          interviewee: { name: 'Kim Candidate', email: 'kim@example.com' },
          requestMetadata: { atsName: 'Pages test' },
        },
      },
    );
    const event = data.createVirtualInterviewEvent.event;
    const path = (url: string) => new URL(url).pathname;
    return {
      id: event.id as string,
      landing: path(event.interviewLandingPageUrl),
      interviewer: path(event.interviewerLobbyUrl),
      interviewee: path(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl),
    };
  }

  async function intervieweeStatus(eventId: string): Promise<string> {
    const row = await database!.db('interviewees').where({ event_id: eventId }).first();
    return row.status;
  }

  it('limits wrong emails on the interviewer lobby per address and event (429 with Retry-After)', async () => {
    const limited = await startTestService(database!, {
      authenticate: async (token) => (token === 'scheduler' ? principal : null),
      env: { RATE_LIMIT_SIGN_IN_MAX: '2' },
    });
    try {
      const { body } = await postGraphQL(limited.url, 'scheduler', {
        query: `mutation ($input: CreateVirtualInterviewEventInput!) {
          createVirtualInterviewEvent(input: $input) { event { interviewerLobbyUrl } } }`,
        variables: {
          input: {
            title: 'Rate limit check',
            startTime: new Date(Date.now() + 3_600_000).toISOString(),
            endTime: new Date(Date.now() + 7_200_000).toISOString(),
            timezone: 'UTC',
            interviewers: [{ email: 'ana@example.com' }],
            requestMetadata: { atsName: 'Pages test' },
          },
        },
      });
      const lobby = new URL(body.data.createVirtualInterviewEvent.event.interviewerLobbyUrl)
        .pathname;
      const visitor = new Visitor(limited.url);
      await visitor.get(lobby);
      const statuses = [];
      for (const email of ['mallory@example.com', 'eve@example.com', 'trudy@example.com']) {
        const { response } = await visitor.post(`${lobby}/identify`, { email });
        statuses.push(response.status);
        if (response.status === 429)
          assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
      }
      assert.deepEqual(statuses, [403, 403, 429]);
      const invited = await visitor.post(`${lobby}/identify`, { email: 'ana@example.com' });
      assert.equal(invited.response.status, 429, 'still blocked until the window passes');
    } finally {
      await limited.stop();
    }
  });

  it('serves every page no-store, no-referrer, framed by nobody, with no inline script allowed', async () => {
    const paths = await scheduleEvent();
    const visitor = new Visitor(service!.url);
    for (const path of [paths.landing, paths.interviewee, paths.interviewer]) {
      const { response } = await visitor.get(path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      const policy = response.headers.get('content-security-policy') ?? '';
      const directives = new Map(
        policy.split(';').map((part) => {
          const [name = '', ...values] = part.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      const scripts = directives.get('script-src') ?? directives.get('default-src');
      assert.ok(scripts, policy);
      assert.ok(!scripts.includes("'unsafe-inline'") && !scripts.includes("'unsafe-eval'"), policy);
      assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
      assert.deepEqual(directives.get('form-action'), ["'self'"]);
    }
  });

  it('answers one identical 404 for unknown and swapped tokens', async () => {
    const paths = await scheduleEvent();
    const token = (path: string) => path.split('/').at(-1)!;
    const visitor = new Visitor(service!.url);
    const bodies = new Set<string>();
    for (const path of [
      `/interviews/${randomToken()}`,
      `/interviews/${token(paths.interviewer)}`,
      `/lobby/interviewee/${altered(token(paths.interviewee))}`,
      `/lobby/interviewee/${token(paths.landing)}`,
      `/lobby/interviewer/${token(paths.interviewee)}`,
      `/lobby/interviewer/${randomToken()}`,
    ]) {
      const { response, body } = await visitor.get(path);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      bodies.add(body);
    }
    assert.equal(bodies.size, 1);
  });

  it('checks in and admits through PRG, refuses forms without CSRF, re-renders a refusal with 409', async () => {
    const paths = await scheduleEvent('<script>alert(1)</script> screening');
    const interviewee = new Visitor(service!.url);
    const page = await interviewee.get(paths.interviewee);
    assert.ok(page.body.includes('&lt;script&gt;alert(1)&lt;/script&gt; screening'));
    assert.ok(!page.body.includes('<script>'));

    const forged = await interviewee.post(`${paths.interviewee}/check-in`, {}, { csrf: null });
    assert.equal(forged.response.status, 403);
    assert.equal(await intervieweeStatus(paths.id), 'RSVPED');

    const checkIn = await interviewee.post(`${paths.interviewee}/check-in`);
    assert.equal(checkIn.response.status, 303);
    assert.equal(checkIn.response.headers.get('location'), paths.interviewee);
    assert.equal(await intervieweeStatus(paths.id), 'CHECKED_IN');

    const interviewer = new Visitor(service!.url);
    await interviewer.get(paths.interviewer);
    const wrong = await interviewer.post(`${paths.interviewer}/identify`, {
      email: 'bo@example.com',
    });
    assert.equal(wrong.response.status, 403);
    const right = await interviewer.post(`${paths.interviewer}/identify`, {
      email: 'ANA@example.com',
    });
    assert.equal(right.response.status, 303);
    const lobby = await interviewer.get(paths.interviewer);
    assert.match(lobby.body, /Kim Candidate<\/strong>: Checked in, waiting in the lobby/);

    const endInterview = await interviewer.post(`${paths.interviewer}/end-interview`, {
      confirmed: 'yes',
    });
    assert.equal(endInterview.response.status, 409, 'nobody is in the room yet');
    assert.ok(alertText(endInterview.body));
    assert.equal(await intervieweeStatus(paths.id), 'CHECKED_IN');

    const admit = await interviewer.post(`${paths.interviewer}/admit`);
    assert.equal(admit.response.status, 303);
    assert.equal(await intervieweeStatus(paths.id), 'INTERVIEWING');
  });

  it('says a cancelled event cannot be joined, and answers its check-in with 409', async () => {
    const paths = await scheduleEvent();
    const visitor = new Visitor(service!.url);
    await visitor.get(paths.interviewee);
    await graphql(
      'mutation($id: ID!) { cancelVirtualInterviewEvent(input: { id: $id }) { event { id } } }',
      { id: paths.id },
    );
    const page = await visitor.get(paths.interviewee);
    assert.match(page.body, /This interview event was cancelled/);
    assert.doesNotMatch(page.body, />Check in<\/button>/);

    const { response, body } = await visitor.post(`${paths.interviewee}/check-in`);
    assert.equal(response.status, 409);
    assert.ok(alertText(body), 'the refusal is shown in an alert');
    assert.match(body, /This interview event was cancelled/);
    assert.equal(await intervieweeStatus(paths.id), 'CANCELLED');
  });
});
