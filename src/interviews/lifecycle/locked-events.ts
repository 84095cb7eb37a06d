import type { Clock } from '../../clock.js';
import type { EpochMs, EventRow } from '../../db/rows.js';
import type { Transaction } from '../../db/transactions.js';
import type { WebhookOutbox } from '../../webhooks/outbox.js';
import { InterviewNotices } from '../interview-notices.js';
import type { LifecycleStore } from './lifecycle-store.js';
import { settleEvent, type SettledEvent } from './settle.js';

/**
 * An event as one transaction sees it: locked (unless asked otherwise), and settled at the
 * transaction's instant; what the transaction tells `notices` reaches the webhook outbox before
 * it commits. `tx` lets the room and recordings write their own tables in the same transaction.
 */
export interface LockedEvent {
  row: EventRow;
  settled: SettledEvent;
  now: EpochMs;
  store: LifecycleStore;
  notices: InterviewNotices;
  tx: Transaction;
}

export interface LockOptions {
  /** The instant to settle at (a sweep's); the clock's now by default. */
  at?: EpochMs;
  /** False reads the event without locking it (a recording stopping takes no turn). */
  lock?: boolean;
}

/**
 * The one way the interview's state changes: one transaction that locks the event (so every
 * change of one event, from any process, happens one after another), settles it by the clock,
 * lets `work` decide and write, and records the notices it gathered in the same transaction.
 */
export class LockedEvents {
  constructor(
    private readonly store: LifecycleStore,
    private readonly clock: Clock,
    /** ARCHIVE_AFTER_DAYS, in milliseconds (see archiveDelayMs). */
    private readonly archiveAfterMs: number,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Runs `work` on the locked event; `missing` answers (or throws) when there is no such event. */
  run<T>(
    eventId: string,
    work: (event: LockedEvent) => Promise<T>,
    missing: () => T,
    options: LockOptions = {},
  ): Promise<T> {
    return this.store.inTransaction(async (store, tx) => {
      const row =
        options.lock === false ? await store.findEvent(eventId) : await store.lockEvent(eventId);
      if (!row) return missing();
      const now = options.at ?? this.clock.now();
      const settled = settleEvent(row, now, this.archiveAfterMs);
      const notices = new InterviewNotices(row, settled.status, now);
      const done = await work({ row, settled, now, store, notices, tx });
      await notices.recordIn(this.outbox, tx);
      return done;
    });
  }
}
