import type { BrowserSessionRow } from '../db/rows.js';
import { Store } from '../db/store.js';

/** SQL for browser sessions. Rows are keyed by the SHA-256 of the session id, never the id. */
export class SessionStore extends Store {
  async insert(row: BrowserSessionRow): Promise<void> {
    await this.db('browser_sessions').insert(row);
  }

  async findByIdHash(idHash: string): Promise<BrowserSessionRow | undefined> {
    return this.db('browser_sessions').where({ id_hash: idHash }).first();
  }

  async touch(idHash: string, lastSeenAt: number): Promise<void> {
    await this.db('browser_sessions')
      .where({ id_hash: idHash })
      .update({ last_seen_at: lastSeenAt });
  }

  async delete(idHash: string): Promise<void> {
    await this.db('browser_sessions').where({ id_hash: idHash }).delete();
  }

  /** Signs the user out of every browser (console and authorization pages share sessions). */
  async deleteForUser(userId: string): Promise<number> {
    return this.db('browser_sessions').where({ user_id: userId }).delete();
  }
}
