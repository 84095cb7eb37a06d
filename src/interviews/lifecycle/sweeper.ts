import type { Logger } from 'pino';
import { runPeriodically, type RunningTask } from '../../periodic-task.js';
import type { Clock } from '../../clock.js';
import type { EpochMs } from '../../db/rows.js';
import { NO_WEBHOOKS, type WebhookOutbox } from '../../webhooks/outbox.js';
import { InterviewNotices } from '../interview-notices.js';
import { endEvent } from './event-ending.js';
import type { LifecycleStore } from './lifecycle-store.js';
import { eventChanges } from './state-machines.js';

/** How many transitions one sweep applied; several workers' counts add up to the due events. */
export interface SweepCounts {
  ended: number;
  archived: number;
  /** Recordings deleted by the retention step; absent when the sweeper has none. */
  recordingsDeleted?: number;
}

/** What follows archiving in a sweep: deletes the recordings of events archived long enough. */
export interface RecordingRetentionStep {
  /** How many recordings this call deleted. */
  deleteExpired(now: EpochMs): Promise<number>;
}

/** Due events read per query; a sweep keeps reading until a batch comes back short. */
const BATCH_SIZE = 200;

/**
 * Persists the time-driven transitions: events whose end time has passed become ENDED (with
 * their interviewee and open record), and events that ended `ARCHIVE_AFTER_DAYS` ago become
 * ARCHIVED. Reads settle these on their own, so a sweep only has to come eventually.
 *
 * Any number of processes may sweep the same database at once: each event moves in its own
 * transaction through a conditional UPDATE that re-checks status and due time, so exactly one
 * sweeper (or interviewer) applies each transition and the others see zero rows changed.
 */
export class InterviewSweeper {
  constructor(
    private readonly store: LifecycleStore,
    /** ARCHIVE_AFTER_DAYS, in milliseconds (see archiveDelayMs). */
    private readonly archiveAfterMs: number,
    private readonly recordingRetention?: RecordingRetentionStep,
    /** Hears of every event the sweep ends, in its transaction (DESIGN §8). */
    private readonly outbox: WebhookOutbox = NO_WEBHOOKS,
  ) {}

  async sweep(now: EpochMs): Promise<SweepCounts> {
    const ended = await this.endDueEvents(now);
    const archived = await this.archiveDueEvents(now);
    if (!this.recordingRetention) return { ended, archived };
    // After archiving, so that with no days to keep, an event archived now loses them now.
    const recordingsDeleted = await this.recordingRetention.deleteExpired(now);
    return { ended, archived, recordingsDeleted };
  }

  /** Ended at their end time, the instant reads already settle them to. */
  private endDueEvents(now: EpochMs): Promise<number> {
    const open = [...eventChanges('end').keys()];
    return inBatches(
      () => this.store.eventsEndingBy(open, now, BATCH_SIZE),
      (event) =>
        this.store.inTransaction(async (store, tx) => {
          const notices = new InterviewNotices(event, event.status, now);
          const due = { column: 'end_at', by: now } as const;
          const ended = await endEvent(store, event.id, event.end_at, now, notices, due);
          await notices.recordIn(this.outbox, tx);
          return ended;
        }),
    );
  }

  /** Archived at the instant they became due, `ARCHIVE_AFTER_DAYS` after they ended. */
  private archiveDueEvents(now: EpochMs): Promise<number> {
    const archiving = eventChanges('archive');
    const endedBy = now - this.archiveAfterMs;
    return inBatches(
      () => this.store.eventsEndedBy([...archiving.keys()], endedBy, BATCH_SIZE),
      (event) =>
        this.store.moveEvent(
          event.id,
          archiving,
          { archived_at: event.ended_at + this.archiveAfterMs, updated_at: now },
          { column: 'ended_at', by: endedBy },
        ),
    );
  }
}

/**
 * Applies `apply` to each due row, batch after batch, and counts the rows this process moved.
 * Stops at a short batch, or at a batch of which it moved nothing (another worker is on it).
 */
async function inBatches<Row>(
  due: () => Promise<Row[]>,
  apply: (row: Row) => Promise<boolean>,
): Promise<number> {
  let moved = 0;
  for (;;) {
    const batch = await due();
    let movedNow = 0;
    for (const row of batch) if (await apply(row)) movedNow += 1;
    moved += movedNow;
    if (batch.length < BATCH_SIZE || movedNow === 0) return moved;
  }
}

export type RunningSweeper = RunningTask;

/**
 * Sweeps every `intervalMs`, the first time one interval after start. Sweeps never overlap; a
 * failed one is logged and the next runs on schedule.
 */
export function startSweeper(
  sweeper: InterviewSweeper,
  clock: Clock,
  intervalMs: number,
  logger: Logger,
): RunningSweeper {
  return runPeriodically(
    intervalMs,
    async () => {
      const counts = await sweeper.sweep(clock.now());
      if (counts.ended || counts.archived || counts.recordingsDeleted) {
        logger.info(counts, 'interview sweep');
      }
    },
    (error) => logger.error({ err: error }, 'interview sweep failed'),
  );
}
