import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { AuthorizationCodeRow } from '../db/rows.js';
import { randomToken, sha256Hex } from '../security/random.js';

/** Spec §5.5: authorization codes expire after 10 minutes. */
export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000;

export type CodeGrant = Omit<
  AuthorizationCodeRow,
  'code_hash' | 'expires_at' | 'consumed_at' | 'created_at'
>;

export type ConsumedCode =
  | { outcome: 'consumed'; code: AuthorizationCodeRow }
  | { outcome: 'replayed'; code: AuthorizationCodeRow }
  | { outcome: 'unknown' };

/** Authorization codes, stored only as SHA-256 digests and consumable exactly once. */
export class AuthorizationCodes {
  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
  ) {}

  /** Stores a new code for the grant and returns the code itself (shown once, in the redirect). */
  async issue(grant: CodeGrant): Promise<string> {
    const code = randomToken(32);
    const now = this.clock.now();
    const row: AuthorizationCodeRow = {
      ...grant,
      code_hash: sha256Hex(code),
      expires_at: now + AUTHORIZATION_CODE_TTL_MS,
      consumed_at: null,
      created_at: now,
    };
    await this.db('authorization_codes').insert(row);
    return code;
  }

  /** The stored code, used or not; undefined when there is no such code. */
  find(code: string): Promise<AuthorizationCodeRow | undefined> {
    return this.db<AuthorizationCodeRow>('authorization_codes')
      .where({ code_hash: sha256Hex(code) })
      .first();
  }

  /**
   * Consumes the code and runs `work` in the same transaction, so that what `work` stores
   * commits together with the consumption: of concurrent redemptions exactly one runs `work`,
   * and whoever finds the code used finds what was issued from it too. False, with nothing run,
   * when the code is unknown or already used.
   */
  redeem(code: string, work: (trx: Knex.Transaction) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      if ((await this.consume(code, trx)).outcome !== 'consumed') return false;
      await work(trx);
      return true;
    });
  }

  /**
   * Marks the code used in one conditional UPDATE, so that of two concurrent exchanges exactly
   * one sees `consumed`; every later presentation sees `replayed`.
   */
  async consume(code: string, executor: Knex | Knex.Transaction = this.db): Promise<ConsumedCode> {
    const codeHash = sha256Hex(code);
    const updated = await executor('authorization_codes')
      .where({ code_hash: codeHash })
      .whereNull('consumed_at')
      .update({ consumed_at: this.clock.now() });
    const row: AuthorizationCodeRow | undefined = await executor('authorization_codes')
      .where({ code_hash: codeHash })
      .first();
    if (!row) return { outcome: 'unknown' };
    return { outcome: updated === 1 ? 'consumed' : 'replayed', code: row };
  }
}
