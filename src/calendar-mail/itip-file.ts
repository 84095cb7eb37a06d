import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { eventZone } from '../lobby/calendar-zone.js';
import { ZonedDate } from '../lobby/zoned-date.js';
import type { CalendarSnapshot } from './mail-plan.js';

export interface ItipMessage {
  uid: string;
  sequence: number;
  method: 'REQUEST' | 'CANCEL';
  snapshot: CalendarSnapshot;
  organizer: { name: string; email: string };
  /** When the message was made (DTSTAMP). */
  stamp: number;
  /** The recipient's own lobby link; never another participant's. */
  lobbyUrl: string | null;
  description: string;
}

/**
 * An iTIP message (RFC 5546) with one VEVENT: METHOD:REQUEST invites or updates, METHOD:CANCEL
 * (with STATUS:CANCELLED) withdraws. Times are in the event's own zone with its VTIMEZONE, as in
 * the pages' .ics files, so the invitation shows and moves (daylight saving) as scheduled.
 *
 * Written here rather than with ical-generator (which makes the pages' files): its line folding
 * makes a TextEncoder per character, about 2 ms a message, and an interview mails every
 * participant, so a busy service spent most of a core folding calendar mails.
 */
export function itipFile(message: ItipMessage): string {
  const { snapshot } = message;
  const zone = eventZone(snapshot.timezone, [snapshot.startAt, snapshot.endAt]);
  const timezone = zone.tzid ? getVtimezoneComponent(zone.tzid) : null;
  const summary = snapshot.employerName
    ? `${snapshot.title} (${snapshot.employerName})`
    : snapshot.title;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hiring partner//Interview calendar mails//EN',
    `METHOD:${message.method}`,
    ...(timezone ? timezone.split(/\r?\n/).filter((line) => line.length > 0) : []),
    'BEGIN:VEVENT',
    `UID:${text(message.uid)}`,
    `SEQUENCE:${message.sequence}`,
    `DTSTAMP:${utcTime(message.stamp)}`,
    `DTSTART${zonedTime(zone.tzid, snapshot.startAt)}`,
    `DTEND${zonedTime(zone.tzid, snapshot.endAt)}`,
    `SUMMARY:${text(summary)}`,
    ...(message.lobbyUrl ? [`LOCATION:${text(message.lobbyUrl)}`] : []),
    `DESCRIPTION:${text(message.description)}`,
    `ORGANIZER;CN=${quoted(message.organizer.name)}:mailto:${message.organizer.email}`,
    ...snapshot.attendees.map(
      (attendee) =>
        'ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE' +
        `${attendee.name ? `;CN=${quoted(attendee.name)}` : ''}:MAILTO:${attendee.email}`,
    ),
    ...(message.lobbyUrl ? [`URL;VALUE=URI:${message.lobbyUrl}`] : []),
    `STATUS:${message.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(folded).join('\r\n');
}

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, newlines as \n. */
function text(value: string): string {
  return value.replace(/[\\;,]/g, (match) => `\\${match}`).replace(/\r\n|\r|\n/g, '\\n');
}

/** A quoted parameter value, such as CN="Casey Candidate". */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (match) => `\\${match}`).replace(/\r\n|\r|\n/g, '\\n')}"`;
}

/** 20261211T100000Z */
function utcTime(at: number): string {
  return `${new Date(at).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
}

/** `;TZID=Europe/Berlin:20261211T110000` in the zone, or `:20261211T100000Z` without one. */
function zonedTime(tzid: string | null, at: number): string {
  if (!tzid) return `:${utcTime(at)}`;
  const wall = new ZonedDate(at, tzid).tzComponents();
  const two = (value: number) => String(value).padStart(2, '0');
  const date = `${String(wall.year).padStart(4, '0')}${two(wall.month)}${two(wall.day)}`;
  return `;TZID=${tzid}:${date}T${two(wall.hour)}${two(wall.minute)}${two(wall.second)}`;
}

/** Lines of at most 75 octets (RFC 5545 §3.1): longer ones continue on lines that start with a space. */
function folded(line: string): string {
  if (line.length <= 74 && /^[\x20-\x7e]*$/.test(line)) return line;
  let result = '';
  let octets = 0;
  for (const char of line) {
    const code = char.codePointAt(0)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    octets += size;
    if (octets > 74) {
      result += '\r\n ';
      octets = size;
    }
    result += char;
  }
  return result;
}
