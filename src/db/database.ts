import knex, { type Knex } from 'knex';
import type { Logger } from 'pino';
import { DEFAULT_DATABASE_RETRIES, type DatabaseConfig } from '../config.js';
import { dialectFor, type DatabaseLocation } from './dialects/index.js';
import { inTransaction, retryTransientFailures } from './transactions.js';

export type Database = Knex;

/**
 * Opens the database the configuration names: the embedded SQLite file (the default) or
 * PostgreSQL. How each engine is opened, and everything else that differs between them, is its
 * dialect's (src/db/dialects/).
 *
 * Storage discipline (DESIGN §7), the same on every engine:
 * - A change of more than one statement runs in one transaction, begun by the one helper of
 *   src/db/transactions.ts (through a store: `store.inTransaction((store, tx) => ...)`), and
 *   only there: it commits whole or rolls back whole. A single statement may run on its own (it
 *   is atomic).
 * - Only stores (and migrations) build queries, and nothing else opens transactions on our
 *   connections: no third-party store gets the handle.
 * - On SQLite the pool holds one connection, so this process has one writer and its
 *   transactions take turns; they begin IMMEDIATE, read snapshots DEFERRED, and the connection
 *   never goes back to the pool inside one (src/db/dialects/sqlite-client.ts). Other processes
 *   on the same file (the CLI, a second server) wait for the write lock up to the busy timeout.
 * - Work the engine undid because of concurrent work (a deadlock, a busy database) is run again a
 *   few times, transactions and single statements alike, then refused as TemporarilyUnavailable
 *   (src/db/transactions.ts).
 */
export function openDatabase(config: DatabaseConfig, logger: Logger): Database {
  const db = knex({
    ...dialectFor(config).knexConfig(config, logger),
    log: knexLog(logger),
    // knex would put the statement with its bound values (emails, names, secrets) into the
    // error's message, and error messages reach the log.
    compileSqlOnError: false,
  });
  retryTransientFailures(db, config.retries ?? DEFAULT_DATABASE_RETRIES);
  return db;
}

/**
 * knex's own messages, through our logger, one line each. A connection that cannot be made also
 * fails the query that asked for it, whose caller reports it once (ensureReachable): knex's
 * copy, with its stack, is only for debugging.
 */
function knexLog(logger: Logger): Knex.Config['log'] {
  const firstLine = (message: unknown) => String(message).split('\n')[0];
  return {
    warn: (message: string) =>
      message.startsWith('Acquire connection error')
        ? logger.debug(firstLine(message))
        : logger.warn(firstLine(message)),
    error: (message: string) => logger.error(firstLine(message)),
    deprecate: (method: string, alternative: string) =>
      logger.warn(`knex: ${method} is deprecated; use ${alternative}`),
    debug: (message: unknown) => logger.debug({ knex: message }, 'knex'),
  };
}

/** Where the configured database is, without credentials: for what the CLI and errors say. */
export function databaseLocation(config: DatabaseConfig): DatabaseLocation {
  return dialectFor(config).location(config);
}

/**
 * Whether the database exists before it is opened. Opening a missing SQLite file creates an
 * empty database: only the server and `npm run migrate` may do that, never the admin CLI.
 */
export function databaseExists(config: DatabaseConfig): boolean {
  return dialectFor(config).exists(config);
}

/** The database cannot be opened or reached; the message is one line naming it. */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
}

/**
 * Opens a connection now, so that a wrong DATABASE_URL or SQLITE_PATH is reported once, in one
 * line that names the database and the settings to check, before anything else runs.
 */
export async function ensureReachable(db: Database, config: DatabaseConfig): Promise<void> {
  try {
    await db.raw('select 1');
  } catch (error) {
    const { text, settings } = databaseLocation(config);
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new DatabaseUnavailable(
      `cannot open the ${text}: ${reason}; check ${settings.join(' and ')}`,
      { cause: error },
    );
  }
}

/** The directory that holds the database's files (an embedded engine's); else undefined. */
export function databaseDirectory(config: DatabaseConfig): string | undefined {
  return dialectFor(config).dataDirectory(config);
}

/**
 * Readiness probe: a write transaction begins, writes and commits. A database that answers
 * reads but cannot take writes (a connection stuck in someone else's transaction, a lock held
 * for good, a full disk, a read-only replica) fails it.
 */
export async function checkWritable(db: Database, now: number): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx('service_probes')
      .insert({ name: 'readiness', checked_at: now })
      .onConflict('name')
      .merge(['checked_at']);
  });
}

interface PoolState {
  numUsed(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * Waits until no query holds or waits for a connection, so that shutdown never aborts work a
 * request handler already started (its client may have hung up, closing the socket early).
 * Gives up after `timeoutMs`; returns whether the pool drained.
 */
export async function waitForIdlePool(db: Database, timeoutMs: number): Promise<boolean> {
  const client = db.client as { pool?: PoolState; readerPool?: { readers?: { pool: PoolState } } };
  // The writer's pool, and on SQLite the readers' (src/db/dialects/sqlite-readers.ts).
  const pools = [client.pool, client.readerPool?.readers?.pool].filter(
    (pool): pool is PoolState => pool !== undefined,
  );
  const busy = () =>
    pools.some((pool) => pool.numUsed() + pool.numPendingAcquires() + pool.numPendingCreates() > 0);
  const deadline = Date.now() + timeoutMs;
  while (busy()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
