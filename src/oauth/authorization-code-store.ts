import type { AuthorizationCodeRow } from '../db/rows.js';
import { Store } from '../db/store.js';

export type ConsumedCode =
  | { outcome: 'consumed'; code: AuthorizationCodeRow }
  | { outcome: 'replayed'; code: AuthorizationCodeRow }
  | { outcome: 'unknown' };

/** SQL for authorization codes, keyed by the SHA-256 of the code (never the code itself). */
export class AuthorizationCodeStore extends Store {
  async insert(row: AuthorizationCodeRow): Promise<void> {
    await this.db('authorization_codes').insert(row);
  }

  find(codeHash: string): Promise<AuthorizationCodeRow | undefined> {
    return this.db<AuthorizationCodeRow>('authorization_codes')
      .where({ code_hash: codeHash })
      .first();
  }

  /** Marks the code used if it was not; true when this call did (one conditional UPDATE). */
  async markConsumed(codeHash: string, now: number): Promise<boolean> {
    const updated = await this.db('authorization_codes')
      .where({ code_hash: codeHash })
      .whereNull('consumed_at')
      .update({ consumed_at: now });
    return updated === 1;
  }

  /**
   * Marks the code used in one conditional UPDATE, so that of two concurrent consumptions
   * exactly one sees `consumed`; every later one sees `replayed`.
   */
  async consume(codeHash: string, now: number): Promise<ConsumedCode> {
    const consumed = await this.markConsumed(codeHash, now);
    const row = await this.find(codeHash);
    if (!row) return { outcome: 'unknown' };
    return { outcome: consumed ? 'consumed' : 'replayed', code: row };
  }
}
