import assert from 'node:assert/strict';
import {
  planCalendarMails,
  type Attendee,
  type CalendarSnapshot,
} from '../../src/calendar-mail/mail-plan.js';

const HOUR = 3_600_000;
const NOW = Date.UTC(2027, 0, 4, 9);
const ana: Attendee = {
  email: 'ana@example.com',
  name: null,
  role: 'interviewer',
  intervieweeId: null,
};
const bo: Attendee = {
  email: 'bo@example.com',
  name: null,
  role: 'interviewer',
  intervieweeId: null,
};
const casey: Attendee = {
  email: 'casey@example.com',
  name: 'Casey',
  role: 'interviewee',
  intervieweeId: 'i-1',
};

function snapshot(fields: Partial<CalendarSnapshot> = {}): CalendarSnapshot {
  return {
    title: 'Round',
    employerName: null,
    startAt: NOW + 48 * HOUR,
    endAt: NOW + 49 * HOUR,
    timezone: 'UTC',
    attendees: [casey, ana, bo],
    ...fields,
  };
}

function plan(
  previous: { sequence: number; snapshot: CalendarSnapshot } | null,
  current: CalendarSnapshot,
  cancelled = false,
) {
  return planCalendarMails({
    previous,
    current,
    cancelled,
    now: NOW,
    invitations: true,
    remindersBeforeMs: [24 * HOUR, HOUR],
  });
}

const summary = (mails: NonNullable<ReturnType<typeof plan>>['mails']) =>
  mails
    .filter((mail) => mail.kind !== 'reminder')
    .map((mail) => `${mail.kind} ${mail.to.email} ${mail.sequence}`);

describe('calendar mail plan', () => {
  it('cancels for a removed participant alone and updates the others', () => {
    const result = plan(
      { sequence: 2, snapshot: snapshot() },
      snapshot({ attendees: [casey, ana] }),
    )!;
    assert.equal(result.sequence, 3);
    assert.deepEqual(summary(result.mails), [
      'update casey@example.com 3',
      'update ana@example.com 3',
      'cancellation bo@example.com 3',
    ]);
    const cancellation = result.mails.find((mail) => mail.kind === 'cancellation')!;
    assert.deepEqual(cancellation.snapshot.attendees, [bo]);
  });

  it('changes nothing, and mails nothing, when nothing a participant holds changed', () => {
    assert.equal(
      plan({ sequence: 1, snapshot: snapshot() }, snapshot({ timezone: 'Europe/Paris' })),
      null,
    );
    const renamed = snapshot({ attendees: [casey, { ...ana, name: 'Ana' }, bo] });
    assert.equal(plan({ sequence: 1, snapshot: snapshot() }, renamed), null);
  });

  it('arms only the reminders still ahead, for everyone', () => {
    const soon = snapshot({ startAt: NOW + 3 * HOUR, endAt: NOW + 4 * HOUR });
    const result = plan(null, soon)!;
    const reminders = result.mails.filter((mail) => mail.kind === 'reminder');
    assert.deepEqual(
      reminders.map((mail) => [mail.to.email, mail.minutesBefore, mail.dueAt]),
      [casey, ana, bo].map((who) => [who.email, 60, NOW + 2 * HOUR]),
    );
  });

  it('cancels for everyone holding the invitation, once', () => {
    const cancelled = plan({ sequence: 0, snapshot: snapshot() }, snapshot(), true)!;
    assert.deepEqual(summary(cancelled.mails), [
      'cancellation casey@example.com 1',
      'cancellation ana@example.com 1',
      'cancellation bo@example.com 1',
    ]);
    assert.equal(cancelled.mails.filter((mail) => mail.kind === 'reminder').length, 0);
    assert.equal(plan({ sequence: 1, snapshot: cancelled.snapshot }, snapshot(), true), null);
  });
});
