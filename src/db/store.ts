import type { Knex } from 'knex';
import { dialectOf, type Dialect } from './dialects/index.js';
import {
  inTransaction,
  isWriteTransaction,
  readSnapshot,
  type Executor,
  type Transaction,
} from './transactions.js';

/**
 * What every store is: the SQL of some tables, run on an executor (the database, or a
 * transaction). The only modules that build queries are stores, src/db and the migrations
 * (test/db/data-layer-boundaries.test.ts); a store's constructor takes its executor and nothing
 * else, so that `on(tx)` can make the same store on a transaction.
 *
 * One transaction idiom for every store, service and flow:
 *
 *     await apps.inTransaction(async (apps, tx) => {
 *       await apps.deleteOwnedApp(appId, ownerId);   // this store, bound to the transaction
 *       await audit.record(entry, tx);               // anything else joins with `tx`
 *     });
 *
 * Engine differences are asked of `this.dialect`; a store never tests which engine it runs on.
 */
export abstract class Store {
  constructor(protected readonly db: Executor) {}

  /**
   * Runs `work` in one write transaction (see src/db/transactions.ts) with this store bound to
   * it; `tx` makes other stores join it. Inside a transaction already, it joins that one.
   */
  inTransaction<T>(work: (store: this, tx: Transaction) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (tx) => work(this.on(tx), tx));
  }

  /** Runs `work` in one read snapshot with this store bound to it (see readSnapshot). */
  readSnapshot<T>(work: (store: this, tx: Transaction) => Promise<T>): Promise<T> {
    return readSnapshot(this.db, (tx) => work(this.on(tx), tx));
  }

  /** This store on `tx`: its statements run in (and commit with) that transaction. */
  on(tx: Transaction): this {
    if (tx === this.db) return this;
    const StoreClass = this.constructor as new (db: Executor) => this;
    return new StoreClass(tx);
  }

  protected get dialect(): Dialect {
    return dialectOf(this.db);
  }

  /** `query`, locking the rows it reads until this store's write transaction ends. */
  protected forUpdate<Query extends Knex.QueryBuilder>(query: Query): Query {
    this.writeTransaction('forUpdate');
    return this.dialect.forUpdate(query);
  }

  /** `query`, holding the rows it reads (shared with other holders) until the transaction ends. */
  protected forShare<Query extends Knex.QueryBuilder>(query: Query): Query {
    this.writeTransaction('forShare');
    return this.dialect.forShare(query);
  }

  /** Makes this store's write transaction and others that call this for `table` take turns. */
  protected serializeOn(table: string): Promise<void> {
    return this.dialect.serializeOn(this.writeTransaction('serializeOn'), table);
  }

  /**
   * Makes this store's write transaction and others that call this with a key in common take
   * turns, keys of rows not inserted yet included (Dialect.serializeOnKeys). Call it once per
   * transaction, before touching those rows.
   */
  protected serializeOnKeys(table: string, keys: readonly string[]): Promise<void> {
    return this.dialect.serializeOnKeys(this.writeTransaction('serializeOnKeys'), table, keys);
  }

  private writeTransaction(lock: string): Transaction {
    if (!isWriteTransaction(this.db)) {
      throw new Error(`${lock} outside a write transaction: run it in inTransaction(...)`);
    }
    return this.db as Transaction;
  }
}
