import { Store } from '../db/store.js';
import type { EpochMs, RecordingRow } from '../db/rows.js';

/**
 * SQL of the recordings table. Every change is one conditional UPDATE whose affected-row count
 * says whether this caller made it, so that concurrent requests (and processes) never both
 * acknowledge one chunk or both stop one recording.
 */
export class RecordingStore extends Store {
  /** Fails with a unique violation when the event already has an active recording. */
  async insert(row: RecordingRow): Promise<void> {
    await this.db('recordings').insert(row);
  }

  find(eventId: string, id: string): Promise<RecordingRow | undefined> {
    return this.db<RecordingRow>('recordings').where({ event_id: eventId, id }).first();
  }

  activeOf(eventId: string): Promise<RecordingRow | undefined> {
    return this.db<RecordingRow>('recordings')
      .where({ event_id: eventId, status: 'recording' })
      .first();
  }

  /** A recording whose file still exists, by the digest of its streaming token. */
  streamable(tokenHash: string): Promise<RecordingRow | undefined> {
    return this.db<RecordingRow>('recordings')
      .where({ token_hash: tokenHash })
      .whereNull('deleted_at')
      .first();
  }

  /**
   * Moves a live recording from `seq` chunks and `fromBytes` bytes to one chunk of `size` more
   * (compare-and-set on both); false when it is no longer there, e.g. stopped meanwhile.
   */
  async advance(id: string, seq: number, fromBytes: number, size: number): Promise<boolean> {
    const changed = await this.db('recordings')
      .where({ id, chunks: seq, bytes: fromBytes, status: 'recording' })
      .whereNull('deleted_at')
      .update({ bytes: fromBytes + size, chunks: seq + 1 });
    return changed === 1;
  }

  /** True when this call stopped the recording. */
  async stop(id: string, now: EpochMs): Promise<boolean> {
    const changed = await this.db('recordings')
      .where({ id, status: 'recording' })
      .update({ status: 'stopped', stopped_at: now });
    return changed === 1;
  }

  /**
   * The recordings with content of these interview records, newest first within each record, in
   * one statement.
   */
  withContentOfRecords(recordIds: readonly string[]): Promise<RecordingRow[]> {
    return this.db<RecordingRow>('recordings')
      .whereIn('record_id', recordIds)
      .where('bytes', '>', 0)
      .whereNull('deleted_at')
      .orderBy([
        { column: 'record_id' },
        { column: 'started_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
  }

  /** An event's recordings with content that were not deleted, oldest first. */
  withContentOfEvent(eventId: string): Promise<RecordingRow[]> {
    return this.db<RecordingRow>('recordings')
      .where({ event_id: eventId })
      .where('bytes', '>', 0)
      .whereNull('deleted_at')
      .orderBy([{ column: 'started_at' }, { column: 'id' }]);
  }

  /** Recordings not yet deleted whose event was archived at or before `archivedBy`. */
  archivedBy(archivedBy: EpochMs, limit: number): Promise<RecordingRow[]> {
    return this.db<RecordingRow>('recordings as r')
      .join('interview_events as e', 'e.id', 'r.event_id')
      .where('e.status', 'ARCHIVED')
      .where('e.archived_at', '<=', archivedBy)
      .whereNull('r.deleted_at')
      .orderBy([{ column: 'r.started_at' }, { column: 'r.id' }])
      .limit(limit)
      .select('r.*');
  }

  /** True when this call marked the recording deleted. */
  async markDeleted(id: string, now: EpochMs): Promise<boolean> {
    const changed = await this.db('recordings')
      .where({ id })
      .whereNull('deleted_at')
      .update({
        deleted_at: now,
        status: 'stopped',
        stopped_at: this.db.raw('coalesce(stopped_at, ?)', [now]),
      });
    return changed === 1;
  }
}
