import assert from 'node:assert/strict';
import ical, { type VEvent } from 'node-ical';
import { ManualClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { mimeParts } from '../support/mime-parts.js';
import { startTestService } from '../support/service.js';
import { SmtpInbox, type ReceivedMail } from '../support/smtp-inbox.js';

const HOUR = 3_600_000;
/** The clock starts here; events start days later. */
const MORNING = Date.UTC(2027, 4, 3, 8, 0);

const EVENT_FIELDS = `id interviewerLobbyUrl
  intervieweesConnection { interviewees { intervieweeLobbyUrl } }`;
const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { ${EVENT_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateVirtualInterviewEventInput!) {
  updateVirtualInterviewEvent(input: $input) { event { id } } }`;
const CANCEL = `mutation($id: ID!) { cancelVirtualInterviewEvent(input: { id: $id }) { event { id } } }`;

type Service = Awaited<ReturnType<typeof startTestService>>;
type Tenant = Awaited<ReturnType<typeof insertTenant>>;

let unique = 0;
function address(label: string): string {
  unique += 1;
  return `${label}-${unique}-${process.pid}@example.com`;
}

/** A calendar mail as its recipient's mail client sees it. */
interface CalendarView {
  mail: ReceivedMail;
  /** The `method` parameter of the text/calendar part, and the part's VEVENT. */
  partMethod: string | null;
  method: string | null;
  event: VEvent | null;
  /** Every decoded part, for what the recipient can read anywhere in the mail. */
  everything: string;
}

function view(mail: ReceivedMail): CalendarView {
  const parts = mimeParts(mail.raw);
  const calendarPart = parts.find((part) => /^text\/calendar/i.test(part.headers['content-type']!));
  const attachment = parts.find((part) => /^application\/ics/i.test(part.headers['content-type']!));
  if (calendarPart) assert.equal(attachment?.text, calendarPart.text, 'the .ics attachment');
  const parsed = calendarPart ? ical.sync.parseICS(calendarPart.text) : {};
  const events = Object.values(parsed).filter(
    (component): component is VEvent => component?.type === 'VEVENT',
  );
  assert.ok(events.length <= 1);
  return {
    mail,
    partMethod: /method=([A-Z]+)/i.exec(calendarPart?.headers['content-type'] ?? '')?.[1] ?? null,
    method: (parsed.vcalendar as { method?: string } | undefined)?.method ?? null,
    event: events[0] ?? null,
    everything: [mail.raw, ...parts.map((part) => part.text)].join('\n'),
  };
}

function tokenOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

describeEachDialect('calendar mails of an interview, through SMTP', (database) => {
  let inbox: SmtpInbox;
  let tenant: Tenant;
  let creatorEmail: string;
  const clock = new ManualClock(MORNING);
  const env = () => ({
    SMTP_URL: inbox.url,
    MAIL_FROM: 'Interviews <interviews@hiring.example>',
    CALENDAR_MAIL_SENDER: 'on',
    // The tests send what is due themselves; a commit also wakes its process's sender.
    CALENDAR_MAIL_POLL_MS: '600000',
  });
  let service: Service;

  before(async () => {
    inbox = await SmtpInbox.start();
    tenant = await insertTenant(database().db, 'calendar');
    creatorEmail = (await database().db('users').where({ id: tenant.userId }).first()).email;
    service = await startTestService(database(), {
      clock,
      env: env(),
      authenticate: async () => employerAppPrincipal(tenant),
    });
  });
  after(async () => {
    await service?.stop();
    await inbox?.close();
  });

  async function graphql(query: string, variables: object, on: Service = service) {
    const { body } = await postGraphQL(on.url, 'token', { query, variables });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  }

  async function schedule(fields: { start: number; interviewers: string[]; interviewee: string }) {
    const data = await graphql(CREATE, {
      input: {
        title: 'Platform engineer',
        startTime: new Date(fields.start).toISOString(),
        endTime: new Date(fields.start + HOUR).toISOString(),
        timezone: 'America/New_York',
        interviewers: fields.interviewers.map((email) => ({ email })),
        interviewee: { name: 'Casey Candidate', email: fields.interviewee },
        requestMetadata: { atsName: 'Calendar suite', employerName: 'Acme' },
      },
    });
    const event = data.createVirtualInterviewEvent.event;
    return {
      id: event.id as string,
      interviewerUrl: event.interviewerLobbyUrl as string,
      intervieweeUrl: event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl as string,
    };
  }

  function reschedule(id: string, start: number) {
    return graphql(UPDATE, {
      input: {
        reschedule: {
          id,
          startTime: new Date(start).toISOString(),
          endTime: new Date(start + HOUR).toISOString(),
        },
      },
    });
  }

  /** The calendar mails about `eventId` to `to` (the creator gets those of every test). */
  async function mailsAbout(to: string, eventId: string, count: number): Promise<CalendarView[]> {
    await service.sendCalendarMails();
    const deadline = Date.now() + 5000;
    for (;;) {
      const about = inbox
        .to(to)
        .map(view)
        .filter((mail) => mail.event?.uid.startsWith(`${eventId}@`));
      if (about.length >= count) return about;
      assert.ok(Date.now() < deadline, `no calendar mail #${count} about ${eventId} to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends what is due, then waits for `count` mails to each address. */
  async function received(addresses: string[], count: number): Promise<CalendarView[][]> {
    await service.sendCalendarMails();
    return Promise.all(
      addresses.map(async (to) => {
        await inbox.waitFor(to, count);
        return inbox.to(to).map(view);
      }),
    );
  }

  it('invites, updates three times and cancels with one UID and a growing SEQUENCE', async () => {
    const interviewer = address('lee');
    const interviewee = address('casey');
    const everyone = [interviewee, creatorEmail, interviewer];
    const start = MORNING + 72 * HOUR;
    const event = await schedule({ start, interviewers: [interviewer], interviewee });
    const starts = [start, start + 24 * HOUR, start + 48 * HOUR, start + 49 * HOUR];
    const all = (count: number) =>
      Promise.all(everyone.map((to) => mailsAbout(to, event.id, count)));
    await all(1);
    for (const [index, next] of starts.slice(1).entries()) {
      await reschedule(event.id, next);
      await all(index + 2);
    }
    // The lobby's calendar file holds the SEQUENCE the mails reached, not a higher one.
    const file = await fetch(`${event.intervieweeUrl}/event.ics`);
    assert.equal(file.status, 200);
    const downloaded = Object.values(ical.sync.parseICS(await file.text())).find(
      (component): component is VEvent => component?.type === 'VEVENT',
    );
    assert.equal(downloaded?.sequence, 3);
    assert.equal(downloaded?.uid, `${event.id}@${new URL(service.config.publicUrl).host}`);

    await graphql(CANCEL, { id: event.id });
    const views = await all(5);

    const uid = `${event.id}@${new URL(service.config.publicUrl).host}`;
    for (const [who, mails] of views.entries()) {
      assert.equal(mails.length, 5, everyone[who]);
      assert.deepEqual(
        mails.map((mail) => [mail.partMethod, mail.method, mail.event?.sequence]),
        [
          ['REQUEST', 'REQUEST', 0],
          ['REQUEST', 'REQUEST', 1],
          ['REQUEST', 'REQUEST', 2],
          ['REQUEST', 'REQUEST', 3],
          ['CANCEL', 'CANCEL', 4],
        ],
      );
      for (const [index, mail] of mails.entries()) {
        const vevent = mail.event!;
        assert.equal(vevent.uid, uid);
        // The cancellation names the time its recipient holds: the last one mailed.
        const expected = starts[Math.min(index, 3)]!;
        assert.equal(vevent.start.toISOString(), new Date(expected).toISOString());
        assert.equal(vevent.end?.toISOString(), new Date(expected + HOUR).toISOString());
        // In the event's own zone, with its VTIMEZONE, as the lobby's file has it.
        assert.equal(vevent.start.tz, 'America/New_York');
        assert.equal(vevent.end?.tz, 'America/New_York');
        assert.match(mail.everything, /\r\nBEGIN:VTIMEZONE\r\nTZID:America\/New_York\r\n/);
        assert.match(
          mail.everything,
          /\r\nDTSTART;TZID=America\/New_York:2027050[678]T0[45]0000\r\n/,
        );
        assert.equal(vevent.status, index === 4 ? 'CANCELLED' : 'CONFIRMED');
        assert.equal(vevent.summary, 'Platform engineer (Acme)');
        const organizer = vevent.organizer as unknown as { val: string; params: { CN: string } };
        assert.equal(organizer.val, 'mailto:interviews@hiring.example');
        assert.equal(organizer.params.CN, 'Acme');
        const attendees = [vevent.attendee ?? []].flat() as unknown as Array<{
          val: string;
          params: { PARTSTAT: string };
        }>;
        assert.deepEqual(
          attendees.map((attendee) => attendee.val.toLowerCase()).sort(),
          everyone.map((email) => `mailto:${email.toLowerCase()}`).sort(),
        );
        for (const attendee of attendees) assert.equal(attendee.params.PARTSTAT, 'NEEDS-ACTION');
        assert.ok(Math.abs(vevent.dtstamp.getTime() - clock.now()) < 1000);
      }
    }
  });

  it('gives each participant only their own lobby link', async () => {
    const interviewer = address('lee');
    const interviewee = address('casey');
    const event = await schedule({
      start: MORNING + 72 * HOUR,
      interviewers: [interviewer],
      interviewee,
    });
    const [toInterviewee, toCreator, toInterviewer] = await Promise.all(
      [interviewee, creatorEmail, interviewer].map(async (to) =>
        (await mailsAbout(to, event.id, 1)).at(-1),
      ),
    );
    const intervieweeToken = tokenOf(event.intervieweeUrl);
    const interviewerToken = tokenOf(event.interviewerUrl);
    assert.ok(toInterviewee!.everything.includes(intervieweeToken));
    assert.ok(!toInterviewee!.everything.includes(interviewerToken));
    assert.ok(toInterviewee!.mail.body.includes(event.intervieweeUrl));
    for (const mail of [toCreator!, toInterviewer!]) {
      assert.ok(mail.everything.includes(interviewerToken));
      assert.ok(!mail.everything.includes(intervieweeToken));
      assert.ok(mail.mail.body.includes(event.interviewerUrl));
    }
  });

  it('invites an added interviewer and updates the others, one SEQUENCE higher', async () => {
    const first = address('lee');
    const added = address('kim');
    const interviewee = address('casey');
    const start = MORNING + 72 * HOUR;
    const event = await schedule({ start, interviewers: [first], interviewee });
    await received([first], 1);
    await reschedule(event.id, start + HOUR);
    await received([first], 2);
    await graphql(UPDATE, {
      input: { addInterviewers: { id: event.id, interviewers: [{ email: added }] } },
    });
    const [toAdded, toFirst] = await received([added, first], 1);
    const invitation = toAdded![0];
    assert.match(invitation!.mail.subject, /Invitation/);
    assert.equal(invitation!.method, 'REQUEST');
    assert.equal(invitation!.event!.sequence, 2);
    await inbox.waitFor(first, 3);
    const update = inbox.to(first).map(view)[2]!;
    assert.ok(toFirst!.length >= 2);
    assert.equal(update.method, 'REQUEST');
    assert.equal(update.event!.sequence, 2);
    const attendees = [update.event!.attendee ?? []].flat() as unknown as Array<{ val: string }>;
    assert.ok(attendees.some((attendee) => attendee.val.toLowerCase() === `mailto:${added}`));
  });

  it('reminds 24 h and 1 h before, once each across two processes, never for a cancelled event', async () => {
    const second = await startTestService(database(), {
      clock,
      env: env(),
      authenticate: async () => employerAppPrincipal(tenant),
    });
    try {
      const start = clock.now() + 48 * HOUR;
      const kept = { interviewer: address('lee'), interviewee: address('casey') };
      const dropped = { interviewer: address('ray'), interviewee: address('sam') };
      const event = await schedule({
        start,
        interviewers: [kept.interviewer],
        interviewee: kept.interviewee,
      });
      const other = await schedule({
        start,
        interviewers: [dropped.interviewer],
        interviewee: dropped.interviewee,
      });
      await received([kept.interviewee, dropped.interviewee], 1);
      await graphql(CANCEL, { id: other.id }, second);
      await received([dropped.interviewee], 2);

      const reminders = (to: string) =>
        inbox.to(to).filter((mail) => mail.subject.startsWith('Reminder:'));
      const sendFromBoth = () =>
        Promise.all([service.sendCalendarMails(), second.sendCalendarMails()]);

      clock.set(start - 24 * HOUR - 60_000);
      await sendFromBoth();
      assert.equal(reminders(kept.interviewee).length, 0, 'not before it is due');

      clock.set(start - 24 * HOUR + 1000);
      await sendFromBoth();
      await inbox.waitFor(kept.interviewer, 2);
      await inbox.waitFor(kept.interviewee, 2);
      clock.set(start - HOUR + 1000);
      await sendFromBoth();
      await sendFromBoth();
      await inbox.waitFor(kept.interviewer, 3);
      await inbox.waitFor(kept.interviewee, 3);
      clock.set(start - 60_000);
      await sendFromBoth();
      // Anything sent twice would have arrived by now.
      await new Promise((resolve) => setTimeout(resolve, 300));

      for (const to of [kept.interviewee, kept.interviewer]) {
        assert.deepEqual(
          reminders(to).map((mail) => mail.subject),
          [
            'Reminder: Platform engineer starts in 24 hours',
            'Reminder: Platform engineer starts in 1 hour',
          ],
        );
      }
      const toInterviewee = reminders(kept.interviewee);
      // Either process may send it; each builds links on its own PUBLIC_URL here.
      assert.ok(
        toInterviewee[0]!.body.includes(`/lobby/interviewee/${tokenOf(event.intervieweeUrl)}`),
      );
      const types = mimeParts(toInterviewee[0]!.raw).map((part) => part.headers['content-type']);
      assert.ok(!types.some((type) => /calendar|ics/.test(type!)), 'a reminder is a plain mail');
      assert.deepEqual(reminders(dropped.interviewee), []);
      assert.deepEqual(reminders(dropped.interviewer), []);
    } finally {
      await second.stop();
    }
  });

  it('re-arms the reminders when the interview is rescheduled', async () => {
    const interviewee = address('casey');
    const start = clock.now() + 48 * HOUR;
    const event = await schedule({ start, interviewers: [], interviewee });
    await received([interviewee], 1);
    const later = start + 24 * HOUR;
    await reschedule(event.id, later);
    await received([interviewee], 2);

    clock.set(start - 24 * HOUR + 1000);
    await service.sendCalendarMails();
    clock.set(start - HOUR + 1000);
    await service.sendCalendarMails();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(inbox.to(interviewee).length, 2, 'nothing at the old times');

    clock.set(later - 24 * HOUR + 1000);
    await received([interviewee], 3);
    assert.equal(
      inbox.to(interviewee)[2]!.subject,
      'Reminder: Platform engineer starts in 24 hours',
    );
  });
});
