import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalEventStatus } from 'ical-generator';
import type { LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import { ZonedDate } from './zoned-date.js';

/** The calendar file's name under a page's path: /interviews/<token>/event.ics. */
export const CALENDAR_FILE_NAME = 'event.ics';

/**
 * The event as an iCalendar file with one VEVENT. Its UID is the same for every copy of an
 * event, and its SEQUENCE grows with every change, so a calendar app replaces the copy it has
 * (a reschedule, a cancellation) instead of adding a second one. `mailedSequence` is the one the
 * event's calendar mails reached: a file opened after a mail must not hold a higher one, or the
 * next mailed update would look older than it to the calendar app.
 */
export function calendarFile(
  view: LobbyView,
  publicUrl: string,
  mailedSequence: number | null = null,
): string {
  const { event } = view;
  const zone = calendarZone(event.timezone);
  const at = (instant: number) => (zone ? new ZonedDate(instant, zone) : new Date(instant));
  const landingPageUrl = view.links.landingPageUrl;
  const calendar = ical({
    prodId: { company: 'Hiring partner', product: 'Interview pages', language: 'EN' },
  });
  // The zone is the event's, not the calendar's: with a calendar zone, ical-generator would write
  // DTSTAMP and LAST-MODIFIED as local times, where iCalendar wants UTC. The generator still
  // adds the VTIMEZONE of every event zone.
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  calendar.createEvent({
    id: calendarUid(event.id, publicUrl),
    // Without calendar mails, seconds since the event was created: grows with updated_at and
    // stays a small integer.
    sequence: mailedSequence ?? Math.max(0, Math.floor((event.updatedAt - event.createdAt) / 1000)),
    stamp: new Date(view.asOf),
    lastModified: new Date(event.updatedAt),
    timezone: zone,
    start: at(event.startAt),
    end: at(event.endAt),
    summary: event.employerName ? `${event.title} (${event.employerName})` : event.title,
    description:
      landingPageUrl && `Interview details and the way into the lobby: ${landingPageUrl}`,
    url: landingPageUrl,
    status: event.status === 'CANCELLED' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

/**
 * The event's UID in every calendar file and mail: the same for each copy of one event, so that a
 * calendar app updates the copy it holds.
 */
export function calendarUid(eventId: string, publicUrl: string): string {
  return `${eventId}@${new URL(publicUrl).host}`;
}

/**
 * The zone as the bundled VTIMEZONE names it, so that TZID and VTIMEZONE agree (an alias such as
 * Asia/Calcutta is Asia/Kolkata there). A zone the bundle lacks gives null: times go out in UTC,
 * still the right instants.
 */
function calendarZone(timezone: string): string | null {
  const component = getVtimezoneComponent(timezone);
  return (component && /^TZID:(.+)$/m.exec(component)?.[1]?.trim()) || null;
}
