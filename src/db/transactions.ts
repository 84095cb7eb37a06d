import type { Knex } from 'knex';
import { dialectOf } from './dialects/index.js';

/**
 * Where a store runs its statements: the database itself (each statement on its own, atomic by
 * itself) or a transaction that `inTransaction` or `readSnapshot` began.
 */
export type Executor = Knex | Knex.Transaction;

/**
 * A transaction in progress. Code outside the data layer only passes it on: to `store.on(tx)`,
 * or to a method that takes one, so that what it writes commits with the rest.
 */
export type Transaction = Knex.Transaction;

type Kind = 'write' | 'read snapshot';

/** What each transaction begun here is for; a transaction begun elsewhere (a test) is unknown. */
const kinds = new WeakMap<Transaction, Kind>();

/**
 * The one way a change of more than one statement runs (DESIGN §7): `work` gets a transaction
 * that commits when it resolves and rolls back when it throws. On SQLite it is the process's one
 * writer connection, begun IMMEDIATE (src/db/dialects/sqlite-client.ts); on PostgreSQL a pooled
 * connection at READ COMMITTED, where what must take turns locks (`Store.forUpdate`, ...).
 *
 * Called with a transaction, it joins it: `work` runs in the caller's transaction, which commits
 * or rolls back as a whole, so a store method may open its own transaction and still compose into
 * a bigger one.
 */
export function inTransaction<T>(db: Executor, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return run(db, 'write', work);
}

/**
 * Reads that must agree with each other: `work` gets a read-only transaction in which every read
 * sees one state of the database, and which blocks no writer (the dialect's `readSnapshot`
 * options: deferred on SQLite, repeatable read on PostgreSQL). It joins a snapshot it is called
 * with; a write transaction it refuses, whose reads are no snapshot on PostgreSQL.
 */
export function readSnapshot<T>(db: Executor, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return run(db, 'read snapshot', work);
}

/** True when `db` is inside a write transaction (or one begun outside this module). */
export function isWriteTransaction(db: Executor): boolean {
  return isTransaction(db) && kinds.get(db) !== 'read snapshot';
}

async function run<T>(db: Executor, kind: Kind, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if (isTransaction(db)) {
    const outer = kinds.get(db);
    if (outer && outer !== kind) throw new Error(`a ${kind} cannot join a ${outer} transaction`);
    return work(db);
  }
  const config = kind === 'read snapshot' ? dialectOf(db).readSnapshot : undefined;
  return db.transaction((tx) => {
    kinds.set(tx, kind);
    return work(tx);
  }, config);
}

/** True when `db` is a transaction rather than the database. */
export function isTransaction(db: Executor): db is Transaction {
  return (db as { isTransaction?: boolean }).isTransaction === true;
}
