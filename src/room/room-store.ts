import type { EpochMs, InterviewRecordRow, RoomConnectionRow } from '../db/rows.js';
import { LifecycleStore } from '../interviews/lifecycle/lifecycle-store.js';

/**
 * SQL of the interview rooms: who is connected (one row per browser connection, whichever
 * process holds it) and the room times of the interviewee's open record. The lifecycle's own
 * statements (the event lock, status moves) come with it.
 */
export class RoomStore extends LifecycleStore {
  /**
   * Idempotent: a connection that enters again while its row is still there (its leave failed
   * after the row was written) updates that row instead of failing on the duplicate id.
   */
  async addConnection(row: RoomConnectionRow): Promise<void> {
    await this.db('room_connections').insert(row).onConflict('id').merge(['video', 'seen_at']);
  }

  /** True when this call removed the connection. */
  async removeConnection(eventId: string, id: string): Promise<boolean> {
    return (await this.db('room_connections').where({ event_id: eventId, id }).delete()) === 1;
  }

  /** The connections of an event still seen after `aliveAfter`, oldest first. */
  async connectionsOf(eventId: string, aliveAfter: EpochMs): Promise<RoomConnectionRow[]> {
    const rows = await this.db<RoomConnectionRow>('room_connections')
      .where({ event_id: eventId })
      .where('seen_at', '>', aliveAfter)
      .orderBy([{ column: 'connected_at' }, { column: 'id' }]);
    return rows.map((row) => ({ ...row, video: Boolean(row.video) }));
  }

  async touchConnections(ids: readonly string[], now: EpochMs): Promise<void> {
    if (ids.length) await this.db('room_connections').whereIn('id', ids).update({ seen_at: now });
  }

  /** Connections whose process stopped moving them forward: it died or lost its database. */
  orphanedConnections(seenBy: EpochMs, limit: number): Promise<RoomConnectionRow[]> {
    return this.db<RoomConnectionRow>('room_connections')
      .where('seen_at', '<=', seenBy)
      .orderBy([{ column: 'seen_at' }, { column: 'id' }])
      .limit(limit);
  }

  async updateRecord(
    id: string,
    patch: Partial<Pick<InterviewRecordRow, 'start_at' | 'end_at' | 'room_emptied_at'>>,
  ): Promise<void> {
    await this.db('interview_records').where({ id }).update(patch);
  }

  /** Started interviews whose room has been empty since `emptiedBy` or earlier. */
  abandonedRecords(
    emptiedBy: EpochMs,
    limit: number,
  ): Promise<Array<Pick<InterviewRecordRow, 'id' | 'event_id'>>> {
    return this.db<InterviewRecordRow>('interview_records')
      .whereNull('end_at')
      .whereNotNull('start_at')
      .where('room_emptied_at', '<=', emptiedBy)
      .orderBy([{ column: 'room_emptied_at' }, { column: 'id' }])
      .limit(limit)
      .select('id', 'event_id');
  }
}
