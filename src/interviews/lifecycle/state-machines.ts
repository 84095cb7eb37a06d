import {
  EVENT_STATUSES,
  INTERVIEWEE_STATUSES,
  type EventStatus,
  type IntervieweeStatus,
} from '../vocabulary.js';

/**
 * The two state machines of DESIGN §5, as tables: for every status and every action, either
 * the next status or the reason the action is refused, worded for the person on the page.
 * Nothing here reads a clock or a database; the lifecycle service, the sweeper and the
 * settle-on-read rules all ask these tables, so a rule lives in exactly one place.
 *
 * A next status equal to the current one means "allowed, nothing changes" (checking in twice,
 * cancelling a cancelled event); writers skip such transitions.
 */

export type EventAction = 'join' | 'end' | 'archive' | 'cancel';

export type IntervieweeAction =
  'checkIn' | 'admit' | 'sendBack' | 'finish' | 'eventEnded' | 'eventCancelled';

export type Transition<Status> =
  { allowed: true; next: Status } | { allowed: false; refusal: string };

/** A cell of a table: the next status, or a refusal. */
interface Refused {
  refused: string;
}
type Cell<Status> = Status | Refused;
type Table<Status extends string, Action extends string> = Readonly<
  Record<Status, Readonly<Record<Action, Cell<Status>>>>
>;

const refuse = (message: string): Refused => ({ refused: message });

export const EVENT_ACTIONS: readonly EventAction[] = ['join', 'end', 'archive', 'cancel'];

export const INTERVIEWEE_ACTIONS: readonly IntervieweeAction[] = [
  'checkIn',
  'admit',
  'sendBack',
  'finish',
  'eventEnded',
  'eventCancelled',
];

const EVENT_HAS_ENDED = refuse('This interview event has ended.');
const EVENT_IS_ARCHIVED = refuse('This interview event has ended and is archived.');
const EVENT_WAS_CANCELLED = refuse('This interview event was cancelled.');
const EVENT_NOT_ENDED = refuse('This interview event has not ended yet, so it is not archived.');

/**
 * Event statuses × actions.
 *
 * - join: a participant enters a lobby or an interviewer the room; the first one starts the event.
 * - end: an interviewer ends the event, or its end time passes.
 * - archive: `ARCHIVE_AFTER_DAYS` have passed since the event ended.
 * - cancel: the cancel mutation; idempotent on a cancelled event.
 *
 * |           | join      | end     | archive  | cancel    |
 * |-----------|-----------|---------|----------|-----------|
 * | SCHEDULED | STARTED   | ENDED   | refused  | CANCELLED |
 * | STARTED   | STARTED   | ENDED   | refused  | CANCELLED |
 * | ENDED     | refused   | refused | ARCHIVED | refused   |
 * | ARCHIVED  | refused   | refused | refused  | refused   |
 * | CANCELLED | refused   | refused | refused  | CANCELLED |
 */
const EVENT_TABLE: Table<EventStatus, EventAction> = {
  SCHEDULED: { join: 'STARTED', end: 'ENDED', archive: EVENT_NOT_ENDED, cancel: 'CANCELLED' },
  STARTED: { join: 'STARTED', end: 'ENDED', archive: EVENT_NOT_ENDED, cancel: 'CANCELLED' },
  ENDED: {
    join: EVENT_HAS_ENDED,
    end: refuse('This interview event has already ended.'),
    archive: 'ARCHIVED',
    cancel: refuse('This interview event has ended, so it can no longer be cancelled.'),
  },
  ARCHIVED: {
    join: EVENT_IS_ARCHIVED,
    end: EVENT_IS_ARCHIVED,
    archive: refuse('This interview event is already archived.'),
    cancel: refuse('This interview event has ended and is archived; it cannot be cancelled.'),
  },
  CANCELLED: {
    join: EVENT_WAS_CANCELLED,
    end: refuse('This interview event was cancelled, so there is nothing to end.'),
    archive: refuse('A cancelled interview event is never archived.'),
    cancel: 'CANCELLED',
  },
};

const NOT_CHECKED_IN = refuse('The interviewee has not checked in yet.');
const IN_THE_ROOM = refuse('The interviewee is already in the interview room.');
const WAITING_IN_LOBBY = refuse('The interviewee is waiting in the lobby, not in an interview.');
const ALREADY_INTERVIEWED = refuse('The interviewee has already been interviewed.');
const NEVER_INTERVIEWED = refuse('The event ended before the interviewee was interviewed.');
const INTERVIEW_CANCELLED = refuse('This interview was cancelled.');

/**
 * Interviewee statuses × actions.
 *
 * - checkIn: the interviewee joins the lobby; doing it again (a reload) changes nothing.
 * - admit, sendBack, finish: an interviewer lets them in, sends them back, ends the interview.
 *   `finish` also comes from src/room when a started interview's room stays empty past the grace
 *   period. Admission opens a record; the record's start time is set by src/room at the first
 *   moment the interviewee and an interviewer are both in the room, not here.
 * - eventEnded: the event ends. Whoever never got into the room is NOT_INTERVIEWED; whoever got
 *   in at least once is INTERVIEWED (the one in the room now, and the one sent back to the lobby,
 *   who already has a finished record).
 * - eventCancelled: the event is cancelled.
 *
 * |                 | checkIn      | admit        | sendBack | finish      | eventEnded      | eventCancelled |
 * |-----------------|--------------|--------------|----------|-------------|-----------------|----------------|
 * | RSVPED          | CHECKED_IN   | refused      | refused  | refused     | NOT_INTERVIEWED | CANCELLED      |
 * | CHECKED_IN      | CHECKED_IN   | INTERVIEWING | refused  | refused     | NOT_INTERVIEWED | CANCELLED      |
 * | INTERVIEWING    | INTERVIEWING | refused      | REQUEUED | INTERVIEWED | INTERVIEWED     | CANCELLED      |
 * | INTERVIEWED     | refused      | refused      | refused  | refused     | INTERVIEWED     | CANCELLED      |
 * | NOT_INTERVIEWED | refused      | refused      | refused  | refused     | NOT_INTERVIEWED | refused        |
 * | REQUEUED        | REQUEUED     | INTERVIEWING | refused  | refused     | INTERVIEWED     | CANCELLED      |
 * | CANCELLED       | refused      | refused      | refused  | refused     | refused         | CANCELLED      |
 */
const INTERVIEWEE_TABLE: Table<IntervieweeStatus, IntervieweeAction> = {
  RSVPED: {
    checkIn: 'CHECKED_IN',
    admit: NOT_CHECKED_IN,
    sendBack: NOT_CHECKED_IN,
    finish: NOT_CHECKED_IN,
    eventEnded: 'NOT_INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  CHECKED_IN: {
    checkIn: 'CHECKED_IN',
    admit: 'INTERVIEWING',
    sendBack: refuse('The interviewee is already waiting in the lobby.'),
    finish: WAITING_IN_LOBBY,
    eventEnded: 'NOT_INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  INTERVIEWING: {
    checkIn: 'INTERVIEWING',
    admit: IN_THE_ROOM,
    sendBack: 'REQUEUED',
    finish: 'INTERVIEWED',
    eventEnded: 'INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  INTERVIEWED: {
    checkIn: refuse('Your interview is over. Thank you for your time.'),
    admit: ALREADY_INTERVIEWED,
    sendBack: ALREADY_INTERVIEWED,
    finish: ALREADY_INTERVIEWED,
    eventEnded: 'INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  NOT_INTERVIEWED: {
    checkIn: refuse('The event ended before your interview took place.'),
    admit: NEVER_INTERVIEWED,
    sendBack: NEVER_INTERVIEWED,
    finish: NEVER_INTERVIEWED,
    eventEnded: 'NOT_INTERVIEWED',
    eventCancelled: refuse('The event has ended, so it can no longer be cancelled.'),
  },
  REQUEUED: {
    checkIn: 'REQUEUED',
    admit: 'INTERVIEWING',
    sendBack: refuse('The interviewee is already back in the lobby.'),
    finish: WAITING_IN_LOBBY,
    eventEnded: 'INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  CANCELLED: {
    checkIn: INTERVIEW_CANCELLED,
    admit: INTERVIEW_CANCELLED,
    sendBack: INTERVIEW_CANCELLED,
    finish: INTERVIEW_CANCELLED,
    eventEnded: refuse('A cancelled interview does not end.'),
    eventCancelled: 'CANCELLED',
  },
};

export function eventTransition(status: EventStatus, action: EventAction): Transition<EventStatus> {
  return read(EVENT_TABLE[status][action]);
}

export function intervieweeTransition(
  status: IntervieweeStatus,
  action: IntervieweeAction,
): Transition<IntervieweeStatus> {
  return read(INTERVIEWEE_TABLE[status][action]);
}

/**
 * The status changes an event action makes, as from → to (transitions that change nothing left
 * out): what a conditional UPDATE may move, and into what.
 */
export function eventChanges(action: EventAction): ReadonlyMap<EventStatus, EventStatus> {
  return changes(EVENT_TABLE, EVENT_STATUSES, action);
}

export function intervieweeChanges(
  action: IntervieweeAction,
): ReadonlyMap<IntervieweeStatus, IntervieweeStatus> {
  return changes(INTERVIEWEE_TABLE, INTERVIEWEE_STATUSES, action);
}

/**
 * Why an interviewer may not record or edit a decision while the event is in `status`, or null
 * when they may: decisions stay editable until the event is archived.
 */
export function decisionRefusal(status: EventStatus): string | null {
  return status === 'ARCHIVED'
    ? 'This interview event is archived; its decisions can no longer change.'
    : null;
}

function read<Status extends string>(cell: Cell<Status>): Transition<Status> {
  return typeof cell === 'string'
    ? { allowed: true, next: cell }
    : { allowed: false, refusal: cell.refused };
}

function changes<Status extends string, Action extends string>(
  table: Table<Status, Action>,
  statuses: readonly Status[],
  action: Action,
): ReadonlyMap<Status, Status> {
  const moves = new Map<Status, Status>();
  for (const from of statuses) {
    const transition = read<Status>(table[from][action]);
    if (transition.allowed && transition.next !== from) moves.set(from, transition.next);
  }
  return moves;
}
