import ical, { ICalEventStatus } from 'ical-generator';
import type { LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import { addEventZones, eventZone } from './calendar-zone.js';

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
  const zone = eventZone(event.timezone, [event.startAt, event.endAt]);
  const landingPageUrl = view.links.landingPageUrl;
  const calendar = ical({
    prodId: { company: 'Hiring partner', product: 'Interview pages', language: 'EN' },
  });
  addEventZones(calendar);
  calendar.createEvent({
    id: calendarUid(event.id, publicUrl),
    // Without calendar mails, seconds since the event was created: grows with updated_at and
    // stays a small integer.
    sequence: mailedSequence ?? Math.max(0, Math.floor((event.updatedAt - event.createdAt) / 1000)),
    stamp: new Date(view.asOf),
    lastModified: new Date(event.updatedAt),
    timezone: zone.tzid,
    start: zone.at(event.startAt),
    end: zone.at(event.endAt),
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
