import { Store } from '../db/store.js';
import type { EpochMs, RecordingRow } from '../db/rows.js';

/** The row a finalisation writes: final, and which file is served at what length. */
export interface FinalFile {
  finalisedAt: EpochMs;
  seekable: boolean;
  bytes: number;
}

/**
 * SQL of a recording's finalisation (src/recordings/recording-finalisation.ts): the stopped
 * recordings not yet final, and the one conditional UPDATE that makes one final, whose affected
 * row count says which of several finalisers (processes) did.
 */
export class RecordingFinalisationStore extends Store {
  find(id: string): Promise<RecordingRow | undefined> {
    return this.db<RecordingRow>('recordings').where({ id }).first();
  }

  /** Stopped recordings left unfinalised (their process died), stopped at or before `stoppedBy`. */
  unfinalised(stoppedBy: EpochMs, limit: number): Promise<RecordingRow[]> {
    return this.db<RecordingRow>('recordings')
      .where({ status: 'stopped' })
      .whereNull('finalised_at')
      .whereNull('deleted_at')
      .where('stopped_at', '<=', stoppedBy)
      .orderBy([{ column: 'stopped_at' }, { column: 'id' }])
      .limit(limit);
  }

  /**
   * Makes the stopped recording final with `file`, if it still has the `bytesBefore` the
   * finaliser read; false when another finaliser did first, or retention deleted it.
   */
  async markFinal(id: string, bytesBefore: number, file: FinalFile): Promise<boolean> {
    const changed = await this.db('recordings')
      .where({ id, status: 'stopped', bytes: bytesBefore })
      .whereNull('finalised_at')
      .whereNull('deleted_at')
      .update({ finalised_at: file.finalisedAt, seekable: file.seekable, bytes: file.bytes });
    return changed === 1;
  }
}
