import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import type { ICalCalendar } from 'ical-generator';
import { dateTimeFormat } from '../date-time-formats.js';
import { ZonedDate } from './zoned-date.js';

/**
 * How every .ics of the service (the pages' files and the calendar mails) writes an event's
 * times: DTSTART;TZID=<the event's zone> with that zone's wall-clock time, and a VTIMEZONE for
 * it, so a calendar app shows the event in the zone it was scheduled in and moves it correctly
 * across a daylight-saving change.
 */
export interface EventZone {
  /** The TZID written, or null when no trustworthy VTIMEZONE is bundled: times go out in UTC. */
  tzid: string | null;
  /** The instant as the generator should write it: in the zone, or plain UTC. */
  at(instant: number): Date;
}

export function eventZone(timezone: string, instants: readonly number[]): EventZone {
  const tzid = calendarZone(timezone, instants);
  return {
    tzid,
    at: (instant) => (tzid ? new ZonedDate(instant, tzid) : new Date(instant)),
  };
}

/**
 * Makes the calendar add the VTIMEZONE of every event zone. The zone is the event's, not the
 * calendar's: with a calendar zone, ical-generator would write DTSTAMP and LAST-MODIFIED as local
 * times, where iCalendar wants UTC.
 */
export function addEventZones(calendar: ICalCalendar): void {
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
}

/**
 * The zone as the bundled VTIMEZONE names it, so that TZID and VTIMEZONE agree (an alias such as
 * Asia/Calcutta is Asia/Kolkata there). Null when the bundle lacks the zone, or when its
 * VTIMEZONE has none of the offsets the zone has at the event's instants: the bundle writes
 * Etc/GMT+5 as +05:00 (the name's sign is inverted) and lags behind some rule changes (Cairo's
 * summer time), and a calendar app that trusts the VTIMEZONE would show the wrong hour.
 */
function calendarZone(timezone: string, instants: readonly number[]): string | null {
  const component = getVtimezoneComponent(timezone);
  const tzid = (component && /^TZID:(.+)$/m.exec(component)?.[1]?.trim()) || null;
  if (!component || !tzid) return null;
  const offsets = new Set([...component.matchAll(/^TZOFFSETTO:([+-]\d{4})/gm)].map((m) => m[1]));
  return instants.every((instant) => offsets.has(utcOffset(tzid, instant))) ? tzid : null;
}

/** The zone's offset at the instant as iCalendar writes it: "+0100", "-0500". */
function utcOffset(timeZone: string, instant: number): string {
  const name = dateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /^GMT([+-]\d{2}):(\d{2})$/.exec(name ?? '');
  return match ? `${match[1]}${match[2]}` : '+0000';
}
