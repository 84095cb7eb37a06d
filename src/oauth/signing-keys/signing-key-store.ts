import type { Knex } from 'knex';
import type { SigningAlg, SigningKeyRow } from '../../db/rows.js';

/** SQL for the signing keys table. */
export class SigningKeyStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  inTransaction<T>(work: (store: SigningKeyStore) => Promise<T>): Promise<T> {
    return this.db.transaction((trx) => work(new SigningKeyStore(trx)));
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

  /** The key that signs new tokens of an algorithm: the newest one not superseded. */
  findActive(alg: SigningAlg): Promise<SigningKeyRow | undefined> {
    return this.db('signing_keys')
      .where({ alg })
      .whereNull('superseded_at')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'kid', order: 'desc' },
      ])
      .first();
  }

  async supersede(kids: string[], at: number, retireAfter: number): Promise<void> {
    if (!kids.length) return;
    await this.db('signing_keys')
      .whereIn('kid', kids)
      .whereNull('superseded_at')
      .update({ superseded_at: at, retire_after: retireAfter });
  }
}
