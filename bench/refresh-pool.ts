import { randomUUID } from 'node:crypto';
import type { Database } from '../src/db/database.js';
import { randomToken, sha256Hex } from '../src/security/random.js';

/** Rows per INSERT (SQLite turns a multi-row insert into a compound SELECT of at most 500). */
const INSERT_BATCH = 500;

/**
 * Single-use refresh tokens for the refresh grant's measurements, minted in bulk. Each is the
 * only token of a family of its own (a shared family would make concurrent refreshes wait on
 * one another's family lock), and each family and token row is a copy of the rows the service
 * itself wrote for a real authorization-code exchange, with a new family id and token digest.
 */
export class RefreshTokenPool {
  constructor(
    private readonly db: Database,
    /** A refresh token the service issued (through the authorization code grant). */
    private readonly template: string,
  ) {}

  async mint(count: number): Promise<string[]> {
    const token = await this.db('refresh_tokens')
      .where({ token_hash: sha256Hex(this.template) })
      .first();
    if (!token) throw new Error('the template refresh token is not in the database');
    const family = await this.db('refresh_token_families').where({ id: token.family_id }).first();
    const tokens: string[] = [];
    const families: object[] = [];
    const rows: object[] = [];
    for (let index = 0; index < count; index++) {
      const id = randomUUID();
      const value = randomToken(32);
      tokens.push(value);
      families.push({ ...family, id, revoked_at: null, revoked_reason: null });
      rows.push({ ...token, token_hash: sha256Hex(value), family_id: id, consumed_at: null });
    }
    for (let start = 0; start < count; start += INSERT_BATCH) {
      await this.db('refresh_token_families').insert(families.slice(start, start + INSERT_BATCH));
      await this.db('refresh_tokens').insert(rows.slice(start, start + INSERT_BATCH));
    }
    return tokens;
  }
}
