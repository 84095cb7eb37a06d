import type { SecretRevealRow } from '../db/rows.js';
import { Store } from '../db/store.js';

type RevealKey = Pick<SecretRevealRow, 'session_id_hash' | 'client_id'>;

/** SQL for client secrets waiting for their one display (see SecretFlash). */
export class SecretRevealStore extends Store {
  /** Stores the waiting secret, replacing one that waits for the same session and app. */
  async put(row: SecretRevealRow): Promise<void> {
    await this.db('secret_reveals')
      .insert(row)
      .onConflict(['session_id_hash', 'client_id'])
      .merge();
  }

  /** Removes every waiting secret that expired at or before `now`. */
  async purgeExpired(now: number): Promise<void> {
    await this.db('secret_reveals').where('expires_at', '<=', now).delete();
  }

  find(
    key: RevealKey,
  ): Promise<Pick<SecretRevealRow, 'secret_encrypted' | 'expires_at'> | undefined> {
    return this.db('secret_reveals').where(key).first('secret_encrypted', 'expires_at');
  }

  /** Deletes the waiting secret; true when this call deleted it (only one caller can). */
  async delete(key: RevealKey): Promise<boolean> {
    return (await this.db('secret_reveals').where(key).delete()) === 1;
  }
}
