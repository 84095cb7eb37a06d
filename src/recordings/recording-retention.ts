import type { EpochMs } from '../db/rows.js';
import type { RecordingChunkStore } from './recording-chunk-store.js';
import type { RecordingFiles } from './recording-files.js';
import type { RecordingStore } from './recording-store.js';

/** Recordings handled per query; a pass keeps reading until a batch comes back short. */
const BATCH_SIZE = 100;

/**
 * Deletes the recordings of events archived RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE ago: the file
 * first, then the row is marked deleted (its URL answers 404 from then on) and its chunk rows
 * go. A crash in between leaves the row for the next pass, where the missing file is no error;
 * several processes may pass at once, and the conditional update counts each recording for one
 * of them.
 */
export class RecordingRetention {
  constructor(
    private readonly store: RecordingStore,
    private readonly chunks: RecordingChunkStore,
    private readonly files: RecordingFiles,
    private readonly keepAfterArchiveMs: number,
  ) {}

  /** How many recordings this call marked deleted. */
  async deleteExpired(now: EpochMs): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.store.archivedBy(now - this.keepAfterArchiveMs, BATCH_SIZE);
      let deletedNow = 0;
      for (const row of batch) {
        await this.files.remove(row.event_id, row.id);
        // The recording's row first, as a chunk's commit locks them, so the two never deadlock.
        const marked = await this.store.inTransaction(async (store, tx) => {
          const markedNow = await store.markDeleted(row.id, now);
          await this.chunks.on(tx).forget(row.id);
          return markedNow;
        });
        if (marked) deletedNow += 1;
      }
      deleted += deletedNow;
      if (batch.length < BATCH_SIZE || deletedNow === 0) return deleted;
    }
  }
}
