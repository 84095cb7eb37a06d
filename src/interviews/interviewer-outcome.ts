import type { DecisionValue } from './vocabulary.js';

/**
 * One interviewer's outcome of one interview record, as the Interview API lists it: every
 * interviewer of the event has one, with a null decision and note until they enter a decision
 * in the interviewer lobby (a stored interview_outcomes row).
 */
export interface InterviewerOutcome {
  /** Names the record and the interviewer, so a cursor stays the same once a decision is saved. */
  id: string;
  record_id: string;
  interviewer_id: string;
  decision: DecisionValue | null;
  note_text: string | null;
}

export function interviewerOutcomeId(recordId: string, interviewerId: string): string {
  return `${recordId}/${interviewerId}`;
}
