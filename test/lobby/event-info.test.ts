import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import ical, { type VEvent } from 'node-ical';
import { ManualClock } from '../../src/clock.js';
import { startsIn } from '../../src/lobby/countdown.js';
import type { Principal } from '../../src/oauth/principal.js';
import { randomToken } from '../../src/security/random.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** 9:00 AM in New York (EST, UTC−5), an hour long. */
const START = Date.UTC(2026, 11, 1, 14, 0);
const END = START + HOUR;

const CREATE = `mutation ($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) {
    event {
      id interviewerLobbyUrl interviewLandingPageUrl
      intervieweesConnection { interviewees { intervieweeLobbyUrl } }
    }
  }
}`;

const CANCEL = `mutation ($id: ID!) { cancelVirtualInterviewEvent(input: { id: $id }) { event { id } } }`;

/** Waits between durations, and the words the countdown gives for each. */
const COUNTDOWN_WORDS: Array<[number, string]> = [
  [0, 'Starts in less than a minute'],
  [59_999, 'Starts in less than a minute'],
  [MINUTE, 'Starts in 1 minute'],
  [59 * MINUTE + 59_999, 'Starts in 59 minutes'],
  [HOUR, 'Starts in 1 hour'],
  [2 * HOUR + 5 * MINUTE + 30_000, 'Starts in 2 hours 5 minutes'],
  [24 * HOUR + 3 * HOUR + 20 * MINUTE, 'Starts in 1 day 3 hours'],
  [2 * 24 * HOUR + 59 * MINUTE, 'Starts in 2 days'],
];

/** What public/countdown.js writes into a countdown element when the browser's clock is `now`. */
function browserCountdown(now: number, start: number, end: number) {
  const element = {
    dataset: {
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      started: 'Started at 9:03 AM Eastern Standard Time',
    },
    textContent: 'as the server wrote it',
    hidden: false,
  };
  const BrowserDate = class extends Date {
    static override now() {
      return now;
    }
  };
  runInNewContext(readFileSync('public/countdown.js', 'utf8'), {
    document: { querySelectorAll: () => [element] },
    setInterval: () => 0,
    Date: BrowserDate,
  });
  return element;
}

function altered(token: string): string {
  return `${token.slice(0, -1)}${token.at(-1) === 'A' ? 'B' : 'A'}`;
}

function decoded(html: string): string {
  return html
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

describe('event information wording', () => {
  it('counts down in days and hours, hours and minutes, or less than a minute', () => {
    for (const [wait, words] of COUNTDOWN_WORDS) assert.equal(startsIn(wait), words, `${wait} ms`);
  });

  it('is said the same way by public/countdown.js, which then says when it started and hides', () => {
    for (const [wait, words] of COUNTDOWN_WORDS) {
      assert.equal(
        browserCountdown(START - Math.max(wait, 1), START, END).textContent,
        words,
        `${wait}`,
      );
    }
    const started = browserCountdown(START + MINUTE, START, END);
    assert.equal(started.textContent, 'Started at 9:03 AM Eastern Standard Time');
    assert.equal(started.hidden, false);
    assert.equal(browserCountdown(END, START, END).hidden, true);
  });
});

describeEachDialect('event information and the calendar file', (database) => {
  const clock = new ManualClock(START - 2 * HOUR - 5 * MINUTE);
  let service: Awaited<ReturnType<typeof startTestService>>;
  let userEmail: string;

  before(async () => {
    const { db } = database();
    const tenant = await insertTenant(db, 'event-info');
    await db('users').where({ id: tenant.userId }).update({ name: 'Ana Organizer' });
    userEmail = (await db('users').where({ id: tenant.userId }).first()).email;
    const principal: Principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'event-info-client',
      jti: 'event-info-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database(), {
      authenticate: async (token) => (token === 'scheduler' ? principal : null),
      clock,
    });
  });
  after(async () => {
    await service?.stop();
  });
  afterEach(() => clock.set(START - 2 * HOUR - 5 * MINUTE));

  async function graphql(query: string, variables: object) {
    const { body } = await postGraphQL(service.url, 'scheduler', { query, variables });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  }

  /** Schedules an event at 9:00 AM New York time and returns its URLs and page paths. */
  async function schedule(input: Record<string, unknown> = {}) {
    const data = await graphql(CREATE, {
      input: {
        title: 'Backend engineer – first round',
        startTime: '2026-12-01T09:00:00-05:00',
        endTime: '2026-12-01T10:00:00-05:00',
        timezone: 'America/New_York',
        interviewers: [{ email: 'sam.interviewer@example.com' }],
        interviewee: {
          name: 'Kim Candidate',
          email: 'kim@example.com',
          job: { title: 'Backend engineer', location: 'Remote' },
        },
        requestMetadata: { atsName: 'Event info test', employerName: 'Acme Corp' },
        ...input,
      },
    });
    const event = data.createVirtualInterviewEvent.event;
    const path = (url: string) => new URL(url).pathname;
    const landingPageUrl = event.interviewLandingPageUrl as string;
    return {
      id: event.id as string,
      landingPageUrl,
      landing: path(landingPageUrl),
      interviewer: path(event.interviewerLobbyUrl),
      interviewee: path(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl),
    };
  }

  async function get(path: string) {
    const response = await fetch(`${service.url}${path}`, { redirect: 'manual' });
    return { response, body: await response.text() };
  }

  /** The .ics at `path`, its text and its one VEVENT as node-ical reads it. */
  async function calendar(path: string) {
    const { response, body } = await get(`${path}/event.ics`);
    assert.equal(response.status, 200, body);
    const events = Object.values(ical.sync.parseICS(body)).filter(
      (component): component is VEvent => component?.type === 'VEVENT',
    );
    assert.equal(events.length, 1);
    return { response, text: body, event: events[0]! };
  }

  it('serves the event as an .ics under the landing page and the interviewee lobby', async () => {
    const paths = await schedule();
    const host = new URL(service.config.publicUrl).host;
    for (const page of [paths.landing, paths.interviewee]) {
      const { response, text, event } = await calendar(page);
      assert.equal(response.headers.get('content-type'), 'text/calendar; charset=utf-8');
      assert.equal(
        response.headers.get('content-disposition'),
        'attachment; filename="interview.ics"',
      );
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');

      assert.equal(event.uid, `${paths.id}@${host}`);
      assert.equal(event.start.toISOString(), '2026-12-01T14:00:00.000Z');
      assert.equal(event.end?.toISOString(), '2026-12-01T15:00:00.000Z');
      assert.equal(event.start.tz, 'America/New_York');
      assert.match(text, /\r\nDTSTART;TZID=America\/New_York:20261201T090000\r\n/);
      assert.match(text, /\r\nDTEND;TZID=America\/New_York:20261201T100000\r\n/);
      assert.match(text, /\r\nBEGIN:VTIMEZONE\r\nTZID:America\/New_York\r\n/);
      assert.equal(event.dtstamp.getTime(), clock.now());
      assert.equal(event.summary, 'Backend engineer – first round (Acme Corp)');
      assert.equal(urlOf(event), paths.landingPageUrl);
      assert.ok(String(event.description).includes(paths.landingPageUrl));
      assert.equal(event.status, 'CONFIRMED');
    }
  });

  it('keeps commas, semicolons, backslashes, line breaks and unicode of the title', async () => {
    const title = 'Café, naïve; C:\\path — 面接 🎉';
    const paths = await schedule({ title, requestMetadata: { atsName: 'Event info test' } });
    assert.equal((await calendar(paths.landing)).event.summary, title);

    // A title is one line through the API; a stored line break must still not break the file.
    await database().db('interview_events').where({ id: paths.id }).update({ title: 'One\nTwo' });
    const { event, text } = await calendar(paths.interviewee);
    assert.equal(event.summary, 'One\nTwo');
    assert.match(text, /\r\nSUMMARY:One\\nTwo\r\n/);
  });

  it('marks a cancelled event CANCELLED under the same UID with a higher SEQUENCE', async () => {
    const paths = await schedule();
    const before = (await calendar(paths.landing)).event;
    clock.advance(90_000);
    await graphql(CANCEL, { id: paths.id });
    const after = (await calendar(paths.landing)).event;
    assert.equal(after.status, 'CANCELLED');
    assert.equal(after.uid, before.uid);
    assert.ok(Number(after.sequence) > Number(before.sequence), `${after.sequence}`);
  });

  it('answers wrong, altered and other-kind tokens on either .ics path with the one not-found page', async () => {
    const paths = await schedule();
    const token = (path: string) => path.split('/').at(-1)!;
    const { landing, interviewer, interviewee } = {
      landing: token(paths.landing),
      interviewer: token(paths.interviewer),
      interviewee: token(paths.interviewee),
    };
    const wrongLobbyLink = await get(`/lobby/interviewee/${randomToken()}`);
    assert.equal(wrongLobbyLink.response.status, 404);
    for (const path of [
      `/interviews/${randomToken()}/event.ics`,
      `/interviews/${altered(landing)}/event.ics`,
      `/interviews/${interviewer}/event.ics`,
      `/interviews/${interviewee}/event.ics`,
      `/lobby/interviewee/${randomToken()}/event.ics`,
      `/lobby/interviewee/${altered(interviewee)}/event.ics`,
      `/lobby/interviewee/${interviewer}/event.ics`,
      `/lobby/interviewee/${landing}/event.ics`,
      `/lobby/interviewer/${interviewer}/event.ics`,
    ]) {
      const { response, body } = await get(path);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('cache-control'), 'no-store', path);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/, path);
      assert.equal(body, wrongLobbyLink.body, path);
    }
  });

  it('shows employer, job, interviewers by name and the countdown on both pages', async () => {
    const paths = await schedule();
    for (const page of [paths.landing, paths.interviewee]) {
      const { response, body } = await get(page);
      assert.equal(response.status, 200, page);
      const text = decoded(body);
      assert.match(text, /<dt>Employer<\/dt>\s*<dd>Acme Corp<\/dd>/, page);
      assert.match(text, /<dt>Job<\/dt>\s*<dd>Backend engineer \(Remote\)<\/dd>/, page);
      assert.match(
        text,
        /<dt>Interviewers<\/dt>\s*<dd>Ana Organizer and 1 other interviewer<\/dd>/,
        page,
      );
      assert.ok(
        !text.includes('sam.interviewer@example.com'),
        `${page} shows no interviewer email`,
      );
      assert.ok(!text.includes(userEmail), `${page} shows no interviewer email`);
      assert.match(
        text,
        /<p class="countdown" data-countdown data-start="2026-12-01T14:00:00.000Z" data-end="2026-12-01T15:00:00.000Z" data-started="Not started yet, scheduled for 9:00 AM Eastern Standard Time">Starts in 2 hours 5 minutes<\/p>/,
        page,
      );
      assert.match(text, /<script src="\/assets\/countdown.js" defer><\/script>/);
      assert.ok(text.includes(`<a href="${page}/event.ics" download>Add to calendar (.ics)</a>`));
    }
  });

  it('names interviewers where it can and counts the others', async () => {
    const paths = await schedule({
      interviewers: [{ email: 'sam.interviewer@example.com' }, { email: 'lee@example.com' }],
    });
    const interviewers = async () =>
      /<dt>Interviewers<\/dt>\s*<dd>([^<]*)<\/dd>/.exec(
        decoded((await get(paths.interviewee)).body),
      )?.[1];
    assert.equal(await interviewers(), 'Ana Organizer and 2 other interviewers');
    const rows = database().db('interviewers').where({ event_id: paths.id });
    await rows.clone().where({ email: 'lee@example.com' }).update({ name: 'Lee' });
    assert.equal(await interviewers(), 'Ana Organizer, Lee, and 1 other interviewer');
    await rows.clone().update({ name: null });
    assert.equal(await interviewers(), '3 interviewers');
  });

  it('counts down by the service clock, agrees with the status, and says nothing once ended', async () => {
    const paths = await schedule();
    const page = async () => {
      const body = decoded((await get(paths.interviewee)).body);
      return {
        countdown: /<p class="countdown"[^>]*>([^<]*)<\/p>/.exec(body)?.[1],
        switchAt: /<p class="countdown" data-countdown data-start="([^"]*)"/.exec(body)?.[1],
        status: /<dt>Status<\/dt>\s*<dd>([^<]*)<\/dd>/.exec(body)?.[1],
      };
    };
    clock.set(START - 30_000);
    assert.deepEqual(await page(), {
      countdown: 'Starts in less than a minute',
      switchAt: '2026-12-01T14:00:00.000Z',
      status: 'Scheduled',
    });
    // Past its start time with nobody in the room the event is still Scheduled, and says so.
    clock.set(START + 10 * MINUTE);
    assert.deepEqual(await page(), {
      countdown: 'Not started yet, scheduled for 9:00 AM Eastern Standard Time',
      switchAt: '2026-12-01T14:00:00.000Z',
      status: 'Scheduled',
    });
    // Once someone entered the room (at 9:03), it started then, and is in progress.
    await database()
      .db('interview_events')
      .where({ id: paths.id })
      .update({ status: 'STARTED', started_at: START + 3 * MINUTE });
    assert.deepEqual(await page(), {
      countdown: 'Started at 9:03 AM Eastern Standard Time',
      switchAt: '2026-12-01T14:03:00.000Z',
      status: 'In progress',
    });
    clock.set(END);
    assert.equal((await page()).countdown, undefined);
    assert.match((await get(paths.interviewee)).body, /Add to calendar \(.ics\)/);
  });

  it('names a zone one way on every lobby page: Central European Standard Time, never GMT+1', async () => {
    const paths = await schedule({
      startTime: '2026-12-01T15:00:00+01:00',
      endTime: '2026-12-01T16:00:00+01:00',
      timezone: 'Europe/Berlin',
    });
    await database()
      .db('interview_events')
      .where({ id: paths.id })
      .update({ status: 'STARTED', started_at: START + 3 * MINUTE });
    clock.set(START + 10 * MINUTE);
    for (const path of [paths.landing, paths.interviewee]) {
      const body = decoded((await get(path)).body);
      assert.match(body, /Central European Standard Time \(Europe\/Berlin\)/, path);
      assert.match(body, />Started at 3:03 PM Central European Standard Time</, path);
      assert.doesNotMatch(body, /GMT[+-]\d|\bCET\b/, path);
    }
  });

  it('shows no countdown for a cancelled event, and an employer job by its id', async () => {
    const paths = await schedule({
      interviewers: [],
      interviewee: { name: 'Kim', email: 'kim@example.com', job: { employerJobId: 'J-42' } },
      requestMetadata: { atsName: 'Event info test' },
    });
    const page = decoded((await get(paths.landing)).body);
    assert.match(page, /<dt>Job<\/dt>\s*<dd>Job ID J-42<\/dd>/);
    assert.match(page, /<dt>Interviewer<\/dt>\s*<dd>Ana Organizer<\/dd>/);
    assert.doesNotMatch(page, /<dt>Employer<\/dt>/);
    await graphql(CANCEL, { id: paths.id });
    assert.doesNotMatch((await get(paths.landing)).body, /data-countdown/);
  });
});

/** node-ical gives URL with its parameters (VALUE=URI) or as a plain string. */
function urlOf(event: VEvent): string {
  const url = event.url as unknown;
  return typeof url === 'string' ? url : (url as { val: string }).val;
}
