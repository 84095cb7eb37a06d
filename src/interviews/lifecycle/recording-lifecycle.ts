import type { EpochMs } from '../../db/rows.js';
import type { Transaction } from '../../db/transactions.js';
import { TransitionRefused } from './interview-lifecycle.js';
import type { LifecycleStore } from './lifecycle-store.js';
import type { LockedEvent, LockedEvents } from './locked-events.js';
import { settleInterviewee } from './settle.js';
import { eventTransition } from './state-machines.js';
import { eventNotFound, invitedInterviewer } from './transition-guards.js';

/**
 * A recording's change inside the interview's transaction: src/recordings writes its own table
 * with `tx` and says when a record's recording has become available, which partners are told.
 */
export interface RecordingStep {
  tx: Transaction;
  now: EpochMs;
  recordingAvailable(recordId: string): void;
}

/** A recording starting: `recordId` is the interview record in progress that it records. */
export interface RecordingStart extends RecordingStep {
  recordId: string;
}

/**
 * The interview's side of recordings (README "Recordings"): a recording starts only while an
 * interview is in progress, on the locked event, and one made final with content is news for
 * partners, recorded in the same transaction. The bytes and the recordings table are
 * src/recordings'; it refuses in its own terms what this throws (NotFoundError for the event or
 * the interviewer, TransitionRefused when there is no interview to record).
 */
export class RecordingLifecycle {
  constructor(
    private readonly store: LifecycleStore,
    private readonly events: LockedEvents,
  ) {}

  /** Whether `interviewerId` is invited to the event (any of them may stop a recording). */
  async isInterviewer(eventId: string, interviewerId: string): Promise<boolean> {
    return (await this.store.interviewer(eventId, interviewerId)) !== undefined;
  }

  /**
   * Runs `begin` on the locked event once it is open, `interviewerId` is one of its interviewers
   * and its interviewee is INTERVIEWING, with the open record to record.
   */
  start<T>(
    eventId: string,
    interviewerId: string,
    begin: (step: RecordingStart) => Promise<T>,
  ): Promise<T> {
    return this.events.run(
      eventId,
      async (event) => {
        const { settled, store } = event;
        await invitedInterviewer(store, eventId, interviewerId);
        const joining = eventTransition(settled.status, 'join');
        if (!joining.allowed) throw new TransitionRefused(joining.refusal);
        const interviewee = await store.intervieweeOf(eventId);
        const interviewing =
          interviewee && settleInterviewee(interviewee.status, settled.status) === 'INTERVIEWING';
        const record = interviewing
          ? (await store.recordsOf(interviewee.id)).find((candidate) => candidate.end_at === null)
          : undefined;
        if (!record) {
          throw new TransitionRefused(
            'Recording starts once the interviewee is in the interview: admit them first.',
          );
        }
        return begin({ ...stepOf(event), recordId: record.id });
      },
      () => {
        throw eventNotFound();
      },
    );
  }

  /**
   * Runs `end` (which stops a recording) in one transaction with the event as it is; `missing`
   * answers when the event is gone. A stop takes no turn on the event lock: it changes no status.
   */
  stop<T>(eventId: string, end: (step: RecordingStep) => Promise<T>, missing: () => T): Promise<T> {
    return this.events.run(eventId, (event) => end(stepOf(event)), missing, { lock: false });
  }

  /**
   * Runs `finalise` (which makes a stopped recording final, src/recordings) in one transaction
   * with the event as it is; when it says it made the recording final, partners are told the
   * record's recording is available, in that transaction. False when the event is gone.
   */
  finalise(
    eventId: string,
    recordId: string,
    finalise: (step: Omit<RecordingStep, 'recordingAvailable'>) => Promise<boolean>,
  ): Promise<boolean> {
    return this.events.run(
      eventId,
      async (event) => {
        const step = stepOf(event);
        const final = await finalise(step);
        if (final) step.recordingAvailable(recordId);
        return final;
      },
      () => false,
      { lock: false },
    );
  }
}

function stepOf({ tx, now, notices }: LockedEvent): RecordingStep {
  return { tx, now, recordingAvailable: (recordId) => void notices.recordingAvailable(recordId) };
}
