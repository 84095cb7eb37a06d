import type { InterviewerRow } from '../../db/rows.js';
import { NotFoundError } from '../../errors.js';
import { TransitionRefused } from './interview-lifecycle.js';
import type { LifecycleStore } from './lifecycle-store.js';
import type { Transition } from './state-machines.js';

/** The checks every transition makes, and the errors it refuses with. */

export function allowedOrRefuse<Status>(transition: Transition<Status>): Status {
  if (!transition.allowed) throw new TransitionRefused(transition.refusal);
  return transition.next;
}

/**
 * A conditional UPDATE under the event lock finds the status it was told to expect; if it did
 * not, somebody changed the row in a way the lock did not cover, and the transaction is undone.
 */
export async function changed(update: Promise<boolean>): Promise<void> {
  if (!(await update)) {
    throw new TransitionRefused(
      'This interview changed at the same moment; reload the page and try again.',
    );
  }
}

export async function invitedInterviewer(
  store: LifecycleStore,
  eventId: string,
  interviewerId: string,
): Promise<InterviewerRow> {
  const interviewer = await store.interviewer(eventId, interviewerId);
  if (!interviewer) {
    throw new NotFoundError('You are not an interviewer of this event.', 'interviewerId');
  }
  return interviewer;
}

export function eventNotFound(): NotFoundError {
  return new NotFoundError('There is no such interview event.', 'eventId');
}
