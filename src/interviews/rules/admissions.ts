/**
 * Most times one interviewee may be admitted from the lobby in one event. Every admission opens
 * an interview record, so this is also the most records an interviewee has: the bound the
 * Interview API's `interviewRecordsConnection` and the gateway's cost model rely on (without
 * one, a few thousand admit / send-back clicks made one API answer exhaust a worker's heap).
 *
 * Why 10: an interview event is one slot of at most 24 hours with one candidate, who is sent
 * back to the lobby a few times at most (interviewers taking turns, a break, a dropped
 * connection); 10 leaves room for that, and keeps a page of 100 events with every nested list
 * under the default cost limit (158,601 of GRAPHQL_MAX_COST's 200,000).
 */
export const MAX_ADMISSIONS_PER_INTERVIEWEE = 10;

/** Why an interviewee who already has `records` records may not be admitted again, or null. */
export function admissionRefusal(records: number): string | null {
  return records >= MAX_ADMISSIONS_PER_INTERVIEWEE
    ? `The interviewee has been admitted ${MAX_ADMISSIONS_PER_INTERVIEWEE} times, the most one ` +
        'event allows, and cannot be admitted again. End the event when you are done.'
    : null;
}
