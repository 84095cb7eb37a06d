import type { Knex } from 'knex';
import { DEFAULT_DATABASE_RETRIES } from '../config.js';
import { TemporarilyUnavailable } from '../errors.js';
import { dialectOf } from './dialects/index.js';
import type { SynchronousStatements } from './dialects/dialect.js';

export type { SynchronousStatements };

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
 *
 * When the engine undoes the transaction because of concurrent work (a deadlock, a serialization
 * failure, a busy database: `Dialect.isTransientFailure`), `work` runs again in a new one, a
 * bounded number of times (`DATABASE_RETRIES`) after a short jittered pause; then the caller gets
 * TemporarilyUnavailable, which every interface answers 503. So `work` must do nothing outside
 * the database that cannot be done twice. A joined transaction is retried by its outermost owner.
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

/**
 * A write transaction run as one synchronous call, statements and COMMIT included, where the
 * engine's driver allows it (`Dialect.writeInOneCall`; SQLite); undefined where it does not.
 * Retried like `inTransaction`.
 */
export function oneCallWriter(
  db: Executor,
): (<T>(work: (statements: SynchronousStatements) => T) => Promise<T>) | undefined {
  if (isTransaction(db)) return undefined;
  const dialect = dialectOf(db);
  const writeInOneCall = dialect.writeInOneCall?.bind(dialect);
  if (!writeInOneCall) return undefined;
  return (work) => retrying(db, () => writeInOneCall(db, work));
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
  return retrying(db, () =>
    db.transaction((tx) => {
      kinds.set(tx, kind);
      return work(tx);
    }, config),
  );
}

/** Retries allowed on each database handle (openDatabase sets them from its configuration). */
const retriesOf = new WeakMap<Knex, number>();

/**
 * Makes `db` retry as `inTransaction` does, `retries` times, and do the same for every statement
 * run on it outside a transaction: a single statement is undone whole when the engine gives up
 * on it, so running it again is safe. Statements inside a transaction are not retried one by
 * one; their transaction is.
 */
export function retryTransientFailures(db: Knex, retries: number): void {
  retriesOf.set(db, retries);
  // Every statement a builder runs on the handle itself goes through its client's runner;
  // a transaction's statements go through a client knex derives from the prototype, not this one.
  const client = db.client as { runner(builder: unknown): { run(): Promise<unknown> } };
  const runner = client.runner.bind(client);
  client.runner = (builder) => {
    const first = runner(builder);
    const run = first.run.bind(first);
    let runs = 0;
    first.run = () => retrying(db, () => (runs++ === 0 ? run() : runner(builder).run()));
    return first;
  };
}

/** Pause before the first retry; each later one waits about twice as long. */
const FIRST_PAUSE_MS = 10;

async function retrying<T>(db: Knex, attempt: () => Promise<T>): Promise<T> {
  const dialect = dialectOf(db);
  const retries = retriesOf.get(db) ?? DEFAULT_DATABASE_RETRIES;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!dialect.isTransientFailure(error)) throw error;
      if (retry >= retries) throw new TemporarilyUnavailable({ cause: error });
      // Jittered, so that the transactions that just collided do not collide again.
      const pause = FIRST_PAUSE_MS * 2 ** retry * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** True when `db` is a transaction rather than the database. */
export function isTransaction(db: Executor): db is Transaction {
  return (db as { isTransaction?: boolean }).isTransaction === true;
}

/**
 * Runs `then` once what `db` wrote is committed: at once outside a transaction, else after the
 * transaction's COMMIT (knex settles its executionPromise then), never after a ROLLBACK. Fire
 * and forget: the transaction neither waits for it nor fails because of it.
 */
export function afterCommit(db: Executor, then: () => void): void {
  if (!isTransaction(db)) {
    then();
    return;
  }
  db.executionPromise.then(then, () => {});
}
