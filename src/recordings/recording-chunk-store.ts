import { Store } from '../db/store.js';
import type { EpochMs, RecordingChunkRow } from '../db/rows.js';

/**
 * SQL of the recording chunks: claims on sequence numbers and the committed chunks. Each change
 * is one statement conditional on the claim it expects, so that of several requests (in any
 * process) for one sequence number exactly one holds it at a time.
 */
export class RecordingChunkStore extends Store {
  find(recordingId: string, seq: number): Promise<RecordingChunkRow | undefined> {
    return this.db<RecordingChunkRow>('recording_chunks')
      .where({ recording_id: recordingId, seq })
      .first();
  }

  /** True when this call claimed the sequence number; false when a row for it exists already. */
  async claim(row: RecordingChunkRow): Promise<boolean> {
    await this.db('recording_chunks').insert(row).onConflict(['recording_id', 'seq']).ignore();
    const now = await this.find(row.recording_id, row.seq);
    return now?.claim_id === row.claim_id;
  }

  /**
   * Replaces the claim `staleClaimId` (whose request is taken for lost) with `row`'s; false when
   * it was committed, released or replaced meanwhile.
   */
  async takeOver(staleClaimId: string, row: RecordingChunkRow): Promise<boolean> {
    const changed = await this.db('recording_chunks')
      .where({ recording_id: row.recording_id, seq: row.seq, claim_id: staleClaimId })
      .whereNull('committed_at')
      .update({
        size: row.size,
        digest: row.digest,
        claim_id: row.claim_id,
        claimed_at: row.claimed_at,
      });
    return changed === 1;
  }

  /** Marks the claimed chunk committed; false when the claim is no longer `claimId`'s. */
  async commit(recordingId: string, seq: number, claimId: string, now: EpochMs): Promise<boolean> {
    const changed = await this.db('recording_chunks')
      .where({ recording_id: recordingId, seq, claim_id: claimId })
      .whereNull('committed_at')
      .update({ committed_at: now });
    return changed === 1;
  }

  /** Gives the claim up, if it is still `claimId`'s and uncommitted. */
  async release(recordingId: string, seq: number, claimId: string): Promise<void> {
    await this.db('recording_chunks')
      .where({ recording_id: recordingId, seq, claim_id: claimId })
      .whereNull('committed_at')
      .delete();
  }

  /** Forgets every chunk of a recording whose file was deleted. */
  async forget(recordingId: string): Promise<void> {
    await this.db('recording_chunks').where({ recording_id: recordingId }).delete();
  }
}
