import type { EpochMs, EventRow } from '../../db/rows.js';
import type { EventStatus, IntervieweeStatus } from '../vocabulary.js';
import { eventTransition, intervieweeTransition } from './state-machines.js';

/**
 * Settle on read: the status a stored row has at a given instant once the time-driven
 * transitions that are already due are applied. The sweeper persists those transitions sooner
 * or later; until it does, every reader (API, pages, scheduler) settles what it reads, so
 * nobody ever sees a status the clock has already passed.
 *
 * A time-driven transition is dated by the moment it became due, not by when somebody noticed:
 * an event ends at its end time, and is archived `ARCHIVE_AFTER_DAYS` after it ended. The sweeper
 * stores those same instants, so settling and sweeping always agree.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export function archiveDelayMs(archiveAfterDays: number): number {
  return archiveAfterDays * DAY_MS;
}

/** The event columns that time-driven transitions depend on. */
export type EventTimes = Pick<EventRow, 'status' | 'end_at' | 'ended_at'>;

export interface SettledEvent {
  status: EventStatus;
  /** When the event ended (stored, or its end time when the clock ended it); null while open. */
  endedAt: EpochMs | null;
}

export function settleEvent(event: EventTimes, now: EpochMs, archiveAfterMs: number): SettledEvent {
  let { status } = event;
  let endedAt = event.ended_at;
  if (now >= event.end_at) {
    const ending = eventTransition(status, 'end');
    if (ending.allowed) {
      status = ending.next;
      endedAt = event.end_at;
    }
  }
  // An ENDED row always carries ended_at; one without it is left as it is.
  if (endedAt !== null && now >= endedAt + archiveAfterMs) {
    const archiving = eventTransition(status, 'archive');
    if (archiving.allowed) status = archiving.next;
  }
  return { status, endedAt };
}

/** The interviewee's status once the (settled) status of their event has caught up with it. */
export function settleInterviewee(
  status: IntervieweeStatus,
  eventStatus: EventStatus,
): IntervieweeStatus {
  if (eventStatus !== 'ENDED' && eventStatus !== 'ARCHIVED') return status;
  const ending = intervieweeTransition(status, 'eventEnded');
  return ending.allowed ? ending.next : status;
}

/** A record still open when its event ended closes at the moment the event ended. */
export function settleRecordEnd(recordEndAt: EpochMs | null, event: SettledEvent): EpochMs | null {
  return recordEndAt ?? event.endedAt;
}

/** Settles rows at one fixed instant, so that everything read together agrees. */
export interface Settle {
  readonly now: EpochMs;
  event(event: EventTimes): EventStatus;
  interviewee(interviewee: { status: IntervieweeStatus }, event: EventTimes): IntervieweeStatus;
}

export function settleAt(now: EpochMs, archiveAfterMs: number): Settle {
  const event = (row: EventTimes) => settleEvent(row, now, archiveAfterMs).status;
  return {
    now,
    event,
    interviewee: (interviewee, parent) => settleInterviewee(interviewee.status, event(parent)),
  };
}
