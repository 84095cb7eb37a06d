import { MAX_ADMISSIONS_PER_INTERVIEWEE } from './rules/admissions.js';
import { MAX_INVITED_INTERVIEWERS } from './rules/interviewers.js';

/** Most ids one `virtualInterviewEvents` request may ask for, repeats included (DESIGN §4). */
export const MAX_EVENT_IDS = 100;

/**
 * The most items each nested connection's list can hold, by the Interview API's rules. A page
 * never holds more, whatever is stored (src/interviews/nested-page.ts); each is the
 * `@listSize(assumedSize:)` of its connection in schema/interview.graphql, which the gateway's cost
 * model reads (test/graphql/list-bounds.test.ts checks that they agree).
 */
export const NESTED_LIST_BOUNDS = {
  // 49 invited interviewers at most, plus the creator who is added automatically.
  interviewersConnection: MAX_INVITED_INTERVIEWERS + 1,
  // Zero or one interviewee per event (a unique index).
  intervieweesConnection: 1,
  // A record per admission from the lobby, and admissions are capped.
  interviewRecordsConnection: MAX_ADMISSIONS_PER_INTERVIEWEE,
  // One outcome per interviewer of the event (a unique index on record and interviewer).
  interviewOutcomesConnection: MAX_INVITED_INTERVIEWERS + 1,
} as const;

export type NestedListName = keyof typeof NESTED_LIST_BOUNDS;
