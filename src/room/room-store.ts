import type { EpochMs, RoomConnectionRow } from '../db/rows.js';
import { Store } from '../db/store.js';

/**
 * SQL of the interview rooms: who is connected (one row per browser connection, whichever
 * process holds it). The interview's own tables (events, interviewees, records) are the
 * lifecycle's (src/interviews/lifecycle), which runs the room's statements in its transactions.
 */
export class RoomStore extends Store {
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
}
