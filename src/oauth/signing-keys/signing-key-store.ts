import type { SigningKeyRow } from '../../db/rows.js';
import type { SigningAlg } from './algorithms.js';
import { Store } from '../../db/store.js';

/** SQL for the signing keys table. */
export class SigningKeyStore extends Store {
  /**
   * Makes concurrent rotations take turns, so that each one supersedes the key the previous one
   * added (a row lock cannot cover the key being inserted).
   */
  lockForRotation(): Promise<void> {
    return this.serializeOn('signing_keys');
  }

  async insert(row: SigningKeyRow): Promise<void> {
    await this.db('signing_keys').insert(row);
  }

  /** Keys that may still verify a token at `now`: not superseded, or within their grace period. */
  listVerifiable(now: number): Promise<SigningKeyRow[]> {
    return this.db('signing_keys')
      .where((query) => query.whereNull('retire_after').orWhere('retire_after', '>', now))
      .orderBy([{ column: 'created_at' }, { column: 'kid' }]);
  }

  /** The newest key of an algorithm that no other key supersedes: signing now or pending. */
  findNewest(alg: SigningAlg): Promise<SigningKeyRow | undefined> {
    return this.db('signing_keys')
      .where({ alg })
      .whereNull('superseded_at')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'kid', order: 'desc' },
      ])
      .first();
  }

  /**
   * Ends the signing of every key of `alg` at `at` (keys already superseded earlier keep their
   * dates), and schedules them to leave the JWKS at `retireAfter`.
   */
  async supersedeAll(alg: SigningAlg, at: number, retireAfter: number): Promise<void> {
    await this.db('signing_keys')
      .where({ alg })
      .where((query) => query.whereNull('superseded_at').orWhere('superseded_at', '>', at))
      .update({ superseded_at: at, retire_after: retireAfter });
  }
}
