import type { Knex } from 'knex';
import type { SigningAlg, SigningKeyRow } from '../../db/rows.js';

/** SQL for the signing keys table. */
export class SigningKeyStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  inTransaction<T>(work: (store: SigningKeyStore) => Promise<T>): Promise<T> {
    return this.db.transaction((trx) => work(new SigningKeyStore(trx)));
  }

  /**
   * Makes concurrent rotations take turns, so that each one supersedes the key the previous one
   * added. SQLite transactions already take turns (one writer); PostgreSQL needs the lock.
   */
  async lockForRotation(): Promise<void> {
    if (this.db.client.config.client === 'pg') {
      await this.db.raw('lock table signing_keys in share row exclusive mode');
    }
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
