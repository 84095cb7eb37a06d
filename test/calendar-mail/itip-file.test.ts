import assert from 'node:assert/strict';
import ical, { type VEvent } from 'node-ical';
import { itipFile, type ItipMessage } from '../../src/calendar-mail/itip-file.js';

const HOUR = 3_600_000;

function message(timezone: string, startAt: number, method: ItipMessage['method'] = 'REQUEST') {
  return itipFile({
    uid: 'event-1@pages.test',
    sequence: 2,
    method,
    snapshot: {
      title: 'Platform engineer',
      employerName: null,
      startAt,
      endAt: startAt + HOUR,
      timezone,
      attendees: [
        { email: 'casey@example.com', name: 'Casey', role: 'interviewee', intervieweeId: 'casey' },
      ],
    },
    organizer: { name: 'Acme', email: 'interviews@hiring.example' },
    stamp: Date.UTC(2027, 0, 1),
    lobbyUrl: 'http://pages.test/lobby/interviewee/token',
    description: 'Your interview',
  });
}

function vevent(text: string): VEvent {
  const events = Object.values(ical.sync.parseICS(text)).filter(
    (component): component is VEvent => component?.type === 'VEVENT',
  );
  assert.equal(events.length, 1);
  return events[0]!;
}

describe('the .ics of a calendar mail', () => {
  it('is in the event’s zone with its VTIMEZONE, read by node-ical at the right instant', () => {
    // Either side of Berlin's change to summer time (2027-03-28): 10:00 local both times.
    for (const [startAt, local] of [
      [Date.UTC(2027, 2, 26, 9, 0), '20270326T100000'],
      [Date.UTC(2027, 2, 30, 8, 0), '20270330T100000'],
    ] as const) {
      for (const method of ['REQUEST', 'CANCEL'] as const) {
        const text = message('Europe/Berlin', startAt, method);
        assert.match(text, new RegExp(`\\r\\nDTSTART;TZID=Europe/Berlin:${local}\\r\\n`));
        assert.match(text, /\r\nBEGIN:VTIMEZONE\r\nTZID:Europe\/Berlin\r\n/);
        const event = vevent(text);
        assert.equal(event.start.toISOString(), new Date(startAt).toISOString());
        assert.equal(event.end?.toISOString(), new Date(startAt + HOUR).toISOString());
        assert.equal(event.start.tz, 'Europe/Berlin');
        // DTSTAMP stays UTC, as iCalendar wants it.
        assert.match(text, /\r\nDTSTAMP:20270101T000000Z\r\n/);
      }
    }
  });

  it('names an aliased zone as its VTIMEZONE does, at the same instant', () => {
    const startAt = Date.UTC(2027, 4, 6, 4, 30);
    const text = message('Asia/Calcutta', startAt);
    assert.match(text, /\r\nDTSTART;TZID=Asia\/Kolkata:20270506T100000\r\n/);
    const event = vevent(text);
    assert.equal(event.start.toISOString(), new Date(startAt).toISOString());
    assert.equal(event.start.tz, 'Asia/Kolkata');
  });

  it('falls back to UTC where the bundled VTIMEZONE has the wrong offset, at the right instant', () => {
    const startAt = Date.UTC(2027, 4, 6, 14, 0);
    // The bundle writes Etc/GMT+5 (UTC−5) as +05:00, and Cairo without its summer time.
    for (const zone of ['Etc/GMT+5', 'Africa/Cairo']) {
      const text = message(zone, startAt);
      assert.doesNotMatch(text, /TZID/, zone);
      assert.match(text, /\r\nDTSTART:20270506T140000Z\r\n/, zone);
      assert.equal(vevent(text).start.toISOString(), new Date(startAt).toISOString(), zone);
    }
    // In winter Cairo's bundled offset is right, and kept.
    const winter = message('Africa/Cairo', Date.UTC(2027, 0, 6, 14, 0));
    assert.match(winter, /\r\nDTSTART;TZID=Africa\/Cairo:20270106T160000\r\n/);
  });
});
