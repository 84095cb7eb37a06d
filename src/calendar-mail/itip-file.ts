import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import { addEventZones, eventZone } from '../lobby/calendar-zone.js';
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
 */
export function itipFile(message: ItipMessage): string {
  const { snapshot } = message;
  const zone = eventZone(snapshot.timezone, [snapshot.startAt, snapshot.endAt]);
  const calendar = ical({
    prodId: { company: 'Hiring partner', product: 'Interview calendar mails', language: 'EN' },
    method: message.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  addEventZones(calendar);
  calendar.createEvent({
    id: message.uid,
    sequence: message.sequence,
    stamp: new Date(message.stamp),
    timezone: zone.tzid,
    start: zone.at(snapshot.startAt),
    end: zone.at(snapshot.endAt),
    summary: snapshot.employerName
      ? `${snapshot.title} (${snapshot.employerName})`
      : snapshot.title,
    description: message.description,
    url: message.lobbyUrl,
    location: message.lobbyUrl,
    status: message.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: message.organizer,
    attendees: snapshot.attendees.map((attendee) => ({
      email: attendee.email,
      name: attendee.name,
      role: ICalAttendeeRole.REQ,
      status: ICalAttendeeStatus.NEEDSACTION,
      // Nothing reads replies sent to the organizer's address.
      rsvp: false,
    })),
  });
  return calendar.toString();
}
