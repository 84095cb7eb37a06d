/**
 * The Interview API's vocabularies, each written once: the list of values, and its type derived
 * from it. The row types (`src/db/rows.ts`), the state machines, the lobby pages and the tests
 * import them from here.
 *
 * Migrations keep their own literal lists on purpose: a migration is a frozen snapshot of the
 * schema at the time it was written, so it must not change when a vocabulary does.
 */

/** An interview event's statuses (DESIGN §5). */
export const EVENT_STATUSES = ['SCHEDULED', 'STARTED', 'ENDED', 'ARCHIVED', 'CANCELLED'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** An interviewee's statuses (DESIGN §5). */
export const INTERVIEWEE_STATUSES = [
  'RSVPED',
  'CHECKED_IN',
  'INTERVIEWING',
  'INTERVIEWED',
  'NOT_INTERVIEWED',
  'REQUEUED',
  'CANCELLED',
] as const;
export type IntervieweeStatus = (typeof INTERVIEWEE_STATUSES)[number];

/** What an interviewer decides about an interviewee, in the order the pages offer them. */
export const DECISION_VALUES = ['YES', 'NO', 'MAYBE', 'SKIP'] as const;
export type DecisionValue = (typeof DECISION_VALUES)[number];

/** How an interview takes place. */
export const MEDIA_TYPES = ['VIDEO', 'PHONE'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Whose page a lobby capability URL opens. */
export const LOBBY_ROLES = ['landing', 'interviewer', 'interviewee'] as const;
export type LobbyRole = (typeof LOBBY_ROLES)[number];

export function isDecisionValue(value: string): value is DecisionValue {
  return (DECISION_VALUES as readonly string[]).includes(value);
}
