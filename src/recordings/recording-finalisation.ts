import type { Logger } from 'pino';
import type { EpochMs, RecordingRow } from '../db/rows.js';
import type { RecordingLifecycle } from '../interviews/lifecycle/recording-lifecycle.js';
import type { RecordingFiles } from './recording-files.js';
import type { RecordingFinalisationStore } from './recording-finalisation-store.js';
import { NotRewritable, writeSeekableCopy } from './seekable-webm.js';

/** Left-over recordings handled per query by the sweeper's step. */
const BATCH_SIZE = 20;

/**
 * How long after its stop the sweeper takes a recording for left over: by then the process that
 * stopped it has finished finalising it unless it died.
 */
export const LEFT_OVER_AFTER_MS = 60_000;

export interface RecordingFinalisationDependencies {
  store: RecordingFinalisationStore;
  files: RecordingFiles;
  /**
   * The interview's side: the transaction that makes a recording final also tells partners,
   * through the lifecycle, that it is available.
   */
  lifecycle: Pick<RecordingLifecycle, 'finalise'>;
  logger: Logger;
}

/**
 * Makes a stopped recording final, once: MediaRecorder writes a WebM as a live stream, without
 * a Duration or Cues, which players show as Infinity long and cannot seek. Finalising writes a
 * seekable copy beside it (src/recordings/seekable-webm.ts), then one conditional UPDATE makes
 * the row final, serving the copy, and records `interview.recording.available` in the same
 * transaction, so partners hear of it exactly once and only when the URL gives the final file.
 * Only then is the recorded file deleted.
 *
 * A crash at any point leaves a playable recording: before the UPDATE the row still serves the
 * recorded file (a half-written copy is a temporary file, never the copy's name); after it, the
 * copy is whole. A recording that is not a WebM ts-ebml can make seekable (cut short, or not a
 * WebM) becomes final as recorded. A file error (disk full) leaves the recording stopped and
 * not final, for the sweeper's step to try again (`finaliseLeftOver`).
 *
 * The process that stops a recording finalises it right after the stop commits, in the
 * background (`finaliseSoon`). Several finalisers (a sweeper in another process) may work on one
 * recording at once: each writes its own temporary file, the copies are identical, and the
 * UPDATE counts one of them.
 */
export class RecordingFinalisation {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly deps: RecordingFinalisationDependencies) {}

  /** Starts finalising in the background; failures are logged (the sweeper tries again). */
  finaliseSoon(recordingId: string): void {
    const work = this.finalise(recordingId)
      .catch((error: unknown) =>
        this.deps.logger.error({ err: error, recordingId }, 'recording finalisation failed'),
      )
      .finally(() => this.running.delete(work));
    this.running.add(work);
  }

  /** Resolves once every finalisation started by `finaliseSoon` so far has ended. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** True when this call made the recording final; false when it was not stopped or is final. */
  async finalise(recordingId: string): Promise<boolean> {
    const { store, files } = this.deps;
    const row = await store.find(recordingId);
    if (!row || row.status !== 'stopped' || row.finalised_at !== null || row.deleted_at !== null) {
      return false;
    }
    const copy = row.bytes > 0 ? await this.seekableCopy(row) : null;
    if (copy === 'gone') return false;
    const final = await this.deps.lifecycle.finalise(row.event_id, row.record_id, (step) =>
      store.on(step.tx).markFinal(row.id, row.bytes, {
        finalisedAt: step.now,
        seekable: copy !== null,
        bytes: copy ?? row.bytes,
      }),
    );
    if (final && copy !== null) await files.removeRecorded(row.event_id, row.id);
    return final;
  }

  /**
   * The sweeper's step: finalises recordings stopped LEFT_OVER_AFTER_MS ago or earlier that are
   * not final (their process died); answers how many this call made final.
   */
  async finaliseLeftOver(now: EpochMs): Promise<number> {
    let finalised = 0;
    for (;;) {
      const batch = await this.deps.store.unfinalised(now - LEFT_OVER_AFTER_MS, BATCH_SIZE);
      let finalisedNow = 0;
      for (const row of batch) {
        try {
          if (await this.finalise(row.id)) finalisedNow += 1;
        } catch (error) {
          this.deps.logger.error(
            { err: error, recordingId: row.id },
            'recording finalisation failed',
          );
        }
      }
      finalised += finalisedNow;
      if (batch.length < BATCH_SIZE || finalisedNow === 0) return finalised;
    }
  }

  /**
   * The seekable copy's length; null when the recording cannot be made seekable (it stays as
   * recorded); 'gone' when its file went meanwhile (another finaliser finished, or retention).
   */
  private async seekableCopy(row: RecordingRow): Promise<number | null | 'gone'> {
    const { files, logger } = this.deps;
    try {
      return await writeSeekableCopy(
        files.absolute(files.relativePath(row.event_id, row.id)),
        row.bytes,
        files.absolute(files.seekablePath(row.event_id, row.id)),
      );
    } catch (error) {
      if (error instanceof NotRewritable) {
        logger.warn(
          { recordingId: row.id, reason: error.message },
          'recording kept as recorded: it cannot be made seekable',
        );
        return null;
      }
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
      throw error;
    }
  }
}
