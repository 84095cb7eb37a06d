import type { EventStatus, IntervieweeStatus } from '../interviews/vocabulary.js';

/** How the pages put each state into words: a short label and, where useful, a sentence. */

export const EVENT_STATUS_LABELS: Record<EventStatus, string> = {
  SCHEDULED: 'Scheduled',
  STARTED: 'In progress',
  ENDED: 'Ended',
  ARCHIVED: 'Ended and archived',
  CANCELLED: 'Cancelled',
};

/** Said on every page of an event that can no longer be joined; null while it is open. */
export const CLOSED_EVENT_NOTICES: Record<EventStatus, string | null> = {
  SCHEDULED: null,
  STARTED: null,
  ENDED: 'This interview event has ended.',
  ARCHIVED: 'This interview event has ended and is archived: nothing on it can change any more.',
  CANCELLED: 'This interview event was cancelled. There is nothing to join.',
};

/** The interviewee's own lobby speaks to them. */
export const INTERVIEWEE_STATUS_FOR_THEM: Record<IntervieweeStatus, string> = {
  RSVPED: 'You have not checked in yet.',
  CHECKED_IN: 'You are checked in and waiting in the lobby. An interviewer will admit you soon.',
  INTERVIEWING: 'You are being interviewed now.',
  INTERVIEWED: 'Your interview is over. Thank you for your time.',
  NOT_INTERVIEWED: 'The event ended before your interview took place.',
  REQUEUED: 'You are back in the lobby. An interviewer will admit you again soon.',
  CANCELLED: 'This interview was cancelled.',
};

/** The interviewer lobby speaks about the interviewee. */
export const INTERVIEWEE_STATUS_FOR_INTERVIEWERS: Record<IntervieweeStatus, string> = {
  RSVPED: 'Not checked in yet',
  CHECKED_IN: 'Checked in, waiting in the lobby',
  INTERVIEWING: 'Being interviewed',
  INTERVIEWED: 'Interviewed',
  NOT_INTERVIEWED: 'Not interviewed',
  REQUEUED: 'Sent back to the lobby, waiting',
  CANCELLED: 'Cancelled',
};

export function isOpen(status: EventStatus): boolean {
  return status === 'SCHEDULED' || status === 'STARTED';
}
