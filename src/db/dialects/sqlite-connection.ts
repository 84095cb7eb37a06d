import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from 'pino';

/** A better-sqlite3 connection as knex's pool holds it. */
export type SqliteConnection = BetterSqlite3.Database & {
  /** The id knex gives its pooled connections and reports in its query events. */
  __knexUid?: string;
  /** Set to make the pool discard the connection instead of handing it out again. */
  __knex__disposed?: unknown;
};

/**
 * Prepared statements kept per connection. The bound is there because the SQL texts are not a
 * fixed set: an IN list or a multi-row INSERT (group commit sends 1 to 200 rows) has a text per
 * length, and each statement holds its compiled program in SQLite's heap for as long as it is
 * cached, so an unbounded cache would grow with every shape ever seen. The hot paths use a few
 * dozen texts; 256 keeps them all, least recently used out first.
 */
const STATEMENTS_PER_CONNECTION = 256;

const caches = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/** `sql` prepared on `connection`, once: knex's client would prepare it on every call. */
export function prepared(connection: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let cache = caches.get(connection);
  if (!cache) caches.set(connection, (cache = new Map()));
  let statement = cache.get(sql);
  if (statement) {
    // Most recently used last: a Map iterates in insertion order.
    cache.delete(sql);
  } else {
    statement = connection.prepare(sql);
    if (cache.size >= STATEMENTS_PER_CONNECTION) cache.delete(cache.keys().next().value!);
  }
  cache.set(sql, statement);
  return statement;
}

/** SQLITE_BUSY and its extended codes (_SNAPSHOT, _RECOVERY, _TIMEOUT). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Waiting for another process's lock without blocking the event loop. The driver is synchronous,
 * so SQLite's own busy timeout would sleep on the main thread, every request of the process
 * stalled behind it, for as long as the other process (the other cluster worker, the CLI, a
 * second server) holds the write lock. Every connection therefore runs with `busy_timeout = 0`,
 * and a statement refused with SQLITE_BUSY is tried again after a short jittered pause on a timer,
 * up to the same overall limit; past it the caller gets SQLITE_BUSY as before, which
 * src/db/transactions.ts retries whole and then answers TemporarilyUnavailable (503).
 *
 * `attempt` must be safe to run again when it failed with SQLITE_BUSY: see `mayRetryBusy`.
 */
export async function untilNotBusy<T>(
  limitMs: number,
  attempt: () => T,
  mayRetry: (error: unknown) => boolean = isBusy,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (let tries = 0; ; tries++) {
    try {
      return attempt();
    } catch (error) {
      if (!mayRetry(error) || Date.now() >= deadline) throw error;
      // 1, 2, 4 ... ms, then every 25 ms or so; jittered so that waiters do not poll together.
      const pause = Math.min(2 ** tries, 25) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * Whether a statement refused with SQLITE_BUSY may simply run again (SQLite's own guidance):
 *
 * - outside an explicit transaction (BEGIN included): the statement did nothing, or SQLite rolled
 *   its implicit transaction back;
 * - a read-only statement, which COMMIT also counts as: it changed nothing. Where BUSY can
 *   still arise in WAL mode: a reader while another connection recovers the WAL after a crash or
 *   the last connection of a process checkpoints on close, and BEGIN IMMEDIATE or a write in
 *   autocommit while another process writes. COMMIT needs no further lock in WAL mode, and the
 *   automatic checkpoint after a commit is PASSIVE: it never waits for a lock (a reader in the
 *   way only shortens it) and its outcome does not affect the commit.
 *
 * A write inside a transaction is never retried here: its transaction must be rolled back, and
 * src/db/transactions.ts then runs the whole transaction again. Our write transactions begin
 * IMMEDIATE, holding the write lock before their first statement, so this does not happen to
 * them; a deferred read snapshot that met a recovering WAL ends the same way.
 */
export function mayRetryBusy(inTransaction: boolean, statement?: BetterSqlite3.Statement) {
  return !inTransaction || !statement || statement.readonly;
}

/**
 * A connection found inside a transaction it did not start (something issued BEGIN or SAVEPOINT
 * and never ended it) is logged as an error and rolled back. Left alone, every later BEGIN fails
 * and every single-statement write lands in the stray transaction, acknowledged and then lost.
 */
export function leaveStrayTransaction(connection: SqliteConnection, logger: Logger): void {
  if (!connection.inTransaction) return;
  logger.error(
    'SQLite connection was inside a transaction nobody owns: rolling it back. ' +
      'Writes made in it since are lost; this is a bug in whatever opened it.',
  );
  connection.exec('ROLLBACK');
}

/**
 * After a transaction that did not commit (its work failed, or COMMIT itself failed, which SQLite
 * allows to leave the transaction open): rolls it back, or, if even that fails, marks the
 * connection for the pool to discard and replace.
 */
export function rollBackOrDiscard(connection: SqliteConnection, logger: Logger): void {
  if (!connection.inTransaction) return;
  try {
    connection.exec('ROLLBACK');
  } catch (error) {
    logger.error({ err: error }, 'SQLite rollback failed: discarding the connection');
    connection.__knex__disposed = error;
  }
}
