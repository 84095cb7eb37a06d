import type { Logger } from 'pino';
import {
  NEVER_STOPPED,
  runPeriodically,
  type RunningTask,
  type StopSignal,
} from '../periodic-task.js';
import type { Clock } from '../clock.js';
import type { DispositionStore } from './disposition-store.js';

/** Dispositions past the retention are purged this often in every process... */
const PURGE_INTERVAL_MS = 10 * 60_000;
/** ...this many per transaction, for at most this many transactions each time. */
const PURGE_BATCH = 500;
const PURGE_ROUNDS = 20;

export interface RetentionBounds {
  batch: number;
  rounds: number;
}

export type RunningRetention = RunningTask;

/**
 * DISPOSITION_RETENTION_DAYS: deletes dispositions received longer ago than the retention, a
 * bounded batch per transaction and a bounded number of batches per purge, as the webhook
 * deliveries' purge does. Every process purges on its own timer; on PostgreSQL each batch passes
 * over rows another process is deleting, so processes purging at once neither wait nor collide.
 */
export class DispositionRetention {
  constructor(
    private readonly store: DispositionStore,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly bounds: RetentionBounds = { batch: PURGE_BATCH, rounds: PURGE_ROUNDS },
  ) {}

  /**
   * Deletes up to batch × rounds dispositions received before now − the retention, ending after
   * a batch once `signal` says stop; how many.
   */
  async purgeNow(signal: StopSignal = NEVER_STOPPED): Promise<number> {
    const before = this.clock.now() - this.retentionMs;
    let purged = 0;
    for (let round = 0; round < this.bounds.rounds && !signal.stopped; round++) {
      const deleted = await this.store.purgeReceivedBefore(before, this.bounds.batch);
      purged += deleted;
      if (deleted < this.bounds.batch) break;
    }
    return purged;
  }

  /**
   * Purges every PURGE_INTERVAL_MS, the first time one interval after start. Purges never
   * overlap, a failed one is logged, and one in progress at stop ends after its current batch.
   */
  start(logger: Logger): RunningRetention {
    return runPeriodically(
      PURGE_INTERVAL_MS,
      async (signal) => {
        const purged = await this.purgeNow(signal);
        if (purged) logger.info({ purged }, 'disposition retention');
      },
      (error) => logger.error({ err: error }, 'disposition retention failed'),
    );
  }
}
