import type { EpochMs } from '../../db/rows.js';
import type { InterviewNotices } from '../interview-notices.js';
import type { DueCondition, LifecycleStore } from './lifecycle-store.js';
import { eventChanges, intervieweeTransition } from './state-machines.js';

/**
 * Ends an open event and everything in it, in the caller's transaction: the event becomes
 * ENDED, its interviewee moves as `eventEnded` says (NOT_INTERVIEWED or INTERVIEWED), and a
 * record still open closes at `endedAt`; `notices` hears of each. True when this call ended the
 * event; false when it was not open (or not `due`), in which case nothing was written.
 *
 * Shared by an interviewer ending the event (at the click) and the sweeper (at the end time).
 */
export async function endEvent(
  store: LifecycleStore,
  eventId: string,
  endedAt: EpochMs,
  now: EpochMs,
  notices: InterviewNotices,
  due?: DueCondition,
): Promise<boolean> {
  const ended = await store.moveEvent(
    eventId,
    eventChanges('end'),
    { ended_at: endedAt, updated_at: now },
    due,
  );
  if (!ended) return false;
  notices.eventMoved('ENDED');
  // The event row is locked by the UPDATE above: its interviewee and records hold still.
  const interviewee = await store.intervieweeOf(eventId);
  if (!interviewee) return true;
  const ending = intervieweeTransition(interviewee.status, 'eventEnded');
  if (ending.allowed && ending.next !== interviewee.status) {
    const moves = new Map([[interviewee.status, ending.next]]);
    await store.moveInterviewee(interviewee.id, moves, { updated_at: now });
    notices.intervieweeMoved(interviewee.id, interviewee.status, ending.next);
  }
  const open = await store.openRecordOf(interviewee.id);
  if (open) {
    await store.closeOpenRecordOf(interviewee.id, endedAt);
    notices.recordEnded(open.id, interviewee.id);
  }
  return true;
}
