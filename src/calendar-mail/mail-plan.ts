import type { CalendarMailKind } from '../db/rows.js';

/**
 * Which calendar mails one change of an interview calls for (RFC 5546 iTIP), worked out from what
 * its participants were last mailed and what the event is now. Pure: the store reads both and
 * writes the plan, in the change's transaction.
 */

export type AttendeeRole = 'interviewee' | 'interviewer';

export interface Attendee {
  email: string;
  name: string | null;
  role: AttendeeRole;
  /** The interviewee's id, whose own lobby link the mail carries; null for interviewers. */
  intervieweeId: string | null;
}

/** The event as a calendar mail shows it. Never a link or a token: those are read when sending. */
export interface CalendarSnapshot {
  title: string;
  employerName: string | null;
  startAt: number;
  endAt: number;
  timezone: string;
  attendees: Attendee[];
}

export interface PlannedMail {
  kind: CalendarMailKind;
  to: Attendee;
  sequence: number;
  /** The event as this mail shows it (a cancellation shows the copy its recipient holds). */
  snapshot: CalendarSnapshot;
  dueAt: number;
  /** A reminder's offset before the start, in minutes. */
  minutesBefore: number | null;
}

export interface CalendarPlan {
  /** The SEQUENCE and the snapshot the participants now hold. */
  sequence: number;
  snapshot: CalendarSnapshot;
  /** Pending reminders of the event are replaced by the reminders among `mails`. */
  mails: PlannedMail[];
}

export interface PlanInput {
  /** What was last mailed; null for an event never mailed (just created). */
  previous: { sequence: number; snapshot: CalendarSnapshot } | null;
  current: CalendarSnapshot;
  cancelled: boolean;
  now: number;
  /** Whether invitations, updates and cancellations are mailed (reminders apart). */
  invitations: boolean;
  /** How long before the start each reminder goes; empty: none. */
  remindersBeforeMs: readonly number[];
}

/** The plan, or null when nothing a participant holds changed (no mail, no new SEQUENCE). */
export function planCalendarMails(input: PlanInput): CalendarPlan | null {
  const { previous, current, now } = input;
  if (input.cancelled) {
    if (!previous || previous.snapshot.attendees.length === 0) return null;
    const sequence = previous.sequence + 1;
    return {
      sequence,
      snapshot: { ...previous.snapshot, attendees: [] },
      mails: previous.snapshot.attendees.map((to) =>
        mail('cancellation', to, sequence, previous.snapshot, now),
      ),
    };
  }

  const held = new Map((previous?.snapshot.attendees ?? []).map((a) => [keyOf(a), a]));
  const wanted = new Set(current.attendees.map(keyOf));
  const added = current.attendees.filter((attendee) => !held.has(keyOf(attendee)));
  const kept = current.attendees.filter((attendee) => held.has(keyOf(attendee)));
  const removed = [...held.values()].filter((attendee) => !wanted.has(keyOf(attendee)));
  const detailsChanged = previous !== null && !sameDetails(previous.snapshot, current);
  if (previous && !detailsChanged && !added.length && !removed.length) return null;

  // A new time, title or list of participants is a new version: those who keep the event get
  // it as an update, those added as an invitation, those removed as a cancellation.
  const sequence = previous ? previous.sequence + 1 : 0;
  const mails: PlannedMail[] = [];
  if (input.invitations) {
    for (const to of kept) mails.push(mail('update', to, sequence, current, now));
    for (const to of added) mails.push(mail('invitation', to, sequence, current, now));
    // Withdrawn from them alone: their cancellation names only them (RFC 5546 §3.2.5).
    for (const to of removed) {
      mails.push(
        mail('cancellation', to, sequence, { ...previous!.snapshot, attendees: [to] }, now),
      );
    }
  }
  for (const before of input.remindersBeforeMs) {
    const dueAt = current.startAt - before;
    if (dueAt <= now) continue;
    for (const to of current.attendees) {
      mails.push({
        ...mail('reminder', to, sequence, current, dueAt),
        minutesBefore: before / 60_000,
      });
    }
  }
  return { sequence, snapshot: current, mails };
}

/** One participant is one role at one address (letter case ignored). */
function keyOf(attendee: Attendee): string {
  return `${attendee.role}:${attendee.email.toLowerCase()}`;
}

function sameDetails(a: CalendarSnapshot, b: CalendarSnapshot): boolean {
  return (
    a.title === b.title &&
    a.employerName === b.employerName &&
    a.startAt === b.startAt &&
    a.endAt === b.endAt
  );
}

function mail(
  kind: CalendarMailKind,
  to: Attendee,
  sequence: number,
  snapshot: CalendarSnapshot,
  dueAt: number,
): PlannedMail {
  return { kind, to, sequence, snapshot, dueAt, minutesBefore: null };
}
