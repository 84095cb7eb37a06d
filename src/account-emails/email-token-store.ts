import type { EmailTokenPurpose, EmailTokenRow } from '../db/rows.js';
import { Store } from '../db/store.js';

/** SQL for the single-use links mailed to users. Rows are keyed by the token's SHA-256. */
export class EmailTokenStore extends Store {
  async insert(row: EmailTokenRow): Promise<void> {
    await this.db('email_tokens').insert(row);
  }

  async find(idHash: string, purpose: EmailTokenPurpose): Promise<EmailTokenRow | undefined> {
    const row = await this.db('email_tokens').where({ id_hash: idHash, purpose }).first();
    return row && toRow(row);
  }

  /**
   * Marks the link used when it is unused and unexpired, in one conditional update: of two
   * requests with the same link exactly one gets the row back.
   */
  async consume(
    idHash: string,
    purpose: EmailTokenPurpose,
    now: number,
  ): Promise<EmailTokenRow | undefined> {
    const changed = await this.db('email_tokens')
      .where({ id_hash: idHash, purpose })
      .whereNull('used_at')
      .where('expires_at', '>', now)
      .update({ used_at: now });
    return changed === 1 ? this.find(idHash, purpose) : undefined;
  }

  /** Ends the user's other unused links of this purpose. */
  async retireUnused(userId: string, purpose: EmailTokenPurpose, now: number): Promise<void> {
    await this.db('email_tokens')
      .where({ user_id: userId, purpose })
      .whereNull('used_at')
      .update({ used_at: now });
  }

  /** Forgets links that expired before `before` (kept until then to explain an old link). */
  async purgeExpired(before: number): Promise<void> {
    await this.db('email_tokens').where('expires_at', '<', before).delete();
  }
}

function toRow(row: EmailTokenRow): EmailTokenRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
    used_at: row.used_at === null ? null : Number(row.used_at),
  };
}
