/**
 * Times as the interview pages print them: in the event's own time zone, named, and in UTC, each
 * with the machine-readable instant for a `<time datetime>` element. Pages are English, so the
 * wording follows en-US conventions ("Tuesday, December 1, 2026 at 9:00 AM").
 */

import { dateTimeFormat } from '../date-time-formats.js';

const LOCALE = 'en-US';

/** One time span in one time zone: the end reads as a time only when it falls on the same day. */
export interface SpanText {
  zoneName: string;
  start: string;
  end: string;
}

export interface ScheduleText {
  /** IANA name, such as America/New_York. */
  timezone: string;
  startIso: string;
  endIso: string;
  local: SpanText;
  utc: SpanText;
}

export function describeSchedule(event: {
  startAt: number;
  endAt: number;
  timezone: string;
}): ScheduleText {
  return {
    timezone: event.timezone,
    startIso: new Date(event.startAt).toISOString(),
    endIso: new Date(event.endAt).toISOString(),
    local: describeSpan(event.startAt, event.endAt, event.timezone),
    utc: describeSpan(event.startAt, event.endAt, 'UTC'),
  };
}

/** A moment on a page that already shows the day, such as the start of an interview: "9:05 AM". */
export function timeOfDay(at: number, timezone: string): string {
  return dateTimeFormat(LOCALE, { timeZone: timezone, timeStyle: 'short' }).format(at);
}

export function isoInstant(at: number): string {
  return new Date(at).toISOString();
}

function describeSpan(startAt: number, endAt: number, timeZone: string): SpanText {
  const full = dateTimeFormat(LOCALE, { timeZone, dateStyle: 'full', timeStyle: 'short' });
  return {
    zoneName: zoneName(startAt, timeZone),
    start: full.format(startAt),
    end: sameDay(startAt, endAt, timeZone) ? timeOfDay(endAt, timeZone) : full.format(endAt),
  };
}

/** The zone's long name at that moment ("Eastern Standard Time"), falling back to its IANA name. */
function zoneName(at: number, timeZone: string): string {
  const part = dateTimeFormat(LOCALE, { timeZone, timeZoneName: 'long' })
    .formatToParts(at)
    .find((candidate) => candidate.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

function sameDay(a: number, b: number, timeZone: string): boolean {
  const day = dateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return day.format(a) === day.format(b);
}

/**
 * A moment with its zone named, for a line that stands alone: "9:00 AM Eastern Standard Time".
 * Zones are named the long way everywhere on the pages (as the schedule does), never by short
 * names, which outside the Americas are mere offsets ("GMT+1").
 */
export function timeOfDayInZone(at: number, timezone: string): string {
  return `${timeOfDay(at, timezone)} ${zoneName(at, timezone)}`;
}
