import type { EpochMs } from '../../db/rows.js';
import type { DueCondition, LifecycleStore } from './lifecycle-store.js';
import { eventChanges, intervieweeChanges } from './state-machines.js';

/**
 * Ends an open event and everything in it, in the caller's transaction: the event becomes
 * ENDED, its interviewee moves as `eventEnded` says (NOT_INTERVIEWED or INTERVIEWED), and a
 * record still open closes at `endedAt`. True when this call ended the event; false when it was
 * not open (or not `due`), in which case nothing was written.
 *
 * Shared by an interviewer ending the event (at the click) and the sweeper (at the end time).
 */
export async function endEvent(
  store: LifecycleStore,
  eventId: string,
  endedAt: EpochMs,
  now: EpochMs,
  due?: DueCondition,
): Promise<boolean> {
  const ended = await store.moveEvent(
    eventId,
    eventChanges('end'),
    { ended_at: endedAt, updated_at: now },
    due,
  );
  if (!ended) return false;
  await store.moveIntervieweesOf(eventId, intervieweeChanges('eventEnded'), { updated_at: now });
  await store.closeOpenRecordsOfEvent(eventId, endedAt);
  return true;
}
