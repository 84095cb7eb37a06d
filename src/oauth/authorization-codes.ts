import type { Clock } from '../clock.js';
import type { AuthorizationCodeRow } from '../db/rows.js';
import type { Transaction } from '../db/transactions.js';
import { randomToken, sha256Hex } from '../security/random.js';
import type { AuthorizationCodeStore, ConsumedCode } from './authorization-code-store.js';

export type { ConsumedCode } from './authorization-code-store.js';

/** Spec §5.5: authorization codes expire after 10 minutes. */
export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000;

export type CodeGrant = Omit<
  AuthorizationCodeRow,
  'code_hash' | 'expires_at' | 'consumed_at' | 'created_at'
>;

/** Authorization codes, stored only as SHA-256 digests and consumable exactly once. */
export class AuthorizationCodes {
  constructor(
    private readonly store: AuthorizationCodeStore,
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
    await this.store.insert(row);
    return code;
  }

  /** The stored code, used or not; undefined when there is no such code. */
  find(code: string): Promise<AuthorizationCodeRow | undefined> {
    return this.store.find(sha256Hex(code));
  }

  /**
   * Consumes the code and runs `work` in the same transaction, so that what `work` stores
   * commits together with the consumption: of concurrent redemptions exactly one runs `work`,
   * and whoever finds the code used finds what was issued from it too. False, with nothing run,
   * when the code is unknown or already used.
   */
  redeem(code: string, work: (tx: Transaction) => Promise<void>): Promise<boolean> {
    return this.store.inTransaction(async (codes, tx) => {
      if (!(await codes.markConsumed(sha256Hex(code), this.clock.now()))) return false;
      await work(tx);
      return true;
    });
  }

  /**
   * Marks the code used, so that of two concurrent exchanges exactly one sees `consumed`; every
   * later presentation sees `replayed`.
   */
  consume(code: string): Promise<ConsumedCode> {
    return this.store.consume(sha256Hex(code), this.clock.now());
  }
}
