import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseConfig } from '../config.js';
import { sqliteClientClass } from './sqlite-client.js';

// BIGINT (int8) columns hold epoch milliseconds; they fit a JS number exactly, so read them as
// numbers rather than pg's default strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Knex;

/** How long a SQLite writer waits for another process's write lock before failing. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the embedded SQLite file (the default) or PostgreSQL.
 *
 * Storage discipline (DESIGN §7), the same on both databases:
 * - A change of more than one statement runs in `db.transaction(...)`, and only there: it
 *   commits whole or rolls back whole. A single statement may run on its own (it is atomic).
 * - Nothing else opens transactions on our connections: no third-party store gets the handle.
 * - On SQLite the pool holds one connection, so this process has one writer and its
 *   transactions take turns; `db.transaction` begins them IMMEDIATE and never hands the
 *   connection back inside one (see sqlite-client.ts). Other processes on the same file (the
 *   CLI, a second server) wait for the write lock up to the busy timeout.
 *
 * Durability: SQLite runs in WAL mode. With `synchronous = NORMAL` a committed transaction is
 * in the WAL file before COMMIT returns, so it survives SIGKILL of the process; only an OS
 * crash or power loss can drop the last commits. `SQLITE_SYNCHRONOUS=FULL` also syncs the WAL
 * on every commit, which survives those too at the cost of an fsync per commit. PostgreSQL
 * commits durably by default (`synchronous_commit = on`).
 */
export function openDatabase(config: DatabaseConfig, logger: Logger): Database {
  if (config.client === 'postgres') {
    return knex({
      client: 'pg',
      connection: config.connectionString,
      searchPath: config.searchPath ? [config.searchPath] : undefined,
      pool: { min: 0, max: config.poolMax },
    });
  }
  if (config.filename !== ':memory:') mkdirSync(dirname(config.filename), { recursive: true });
  return knex({
    client: sqliteClientClass(logger),
    connection: { filename: config.filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: SqliteConnection, done: (error: Error | null) => void) {
        connection.exec(
          [
            'PRAGMA journal_mode = WAL',
            'PRAGMA foreign_keys = ON',
            `PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`,
            `PRAGMA synchronous = ${config.synchronous ?? 'NORMAL'}`,
          ].join(';'),
          (error) => done(error),
        );
      },
    },
  });
}

interface SqliteConnection {
  exec(sql: string, callback: (error: Error | null) => void): void;
}

export function isPostgres(db: Database): boolean {
  return db.client.config.client === 'pg';
}

/**
 * Readiness probe: a write transaction begins, writes and commits. A database that answers
 * reads but cannot take writes (a connection stuck in someone else's transaction, a lock held
 * for good, a full disk, a read-only replica) fails it.
 */
export async function checkWritable(db: Database, now: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('service_probes')
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
  const pool = (db.client as { pool?: PoolState }).pool;
  if (!pool) return true;
  const deadline = Date.now() + timeoutMs;
  while (pool.numUsed() + pool.numPendingAcquires() + pool.numPendingCreates() > 0) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
