import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';

// BIGINT (int8) columns hold epoch milliseconds; they fit a JS number exactly, so read them as
// numbers rather than pg's default strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Knex;

/** How long a SQLite writer waits for a competing writer's lock before failing. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the embedded SQLite file (the default) or PostgreSQL. On SQLite each connection gets WAL
 * journalling, enforced foreign keys and a busy timeout; the pool holds one connection because
 * SQLite serialises writers anyway and one connection keeps transactions free of lock errors.
 */
export function openDatabase(config: DatabaseConfig): Database {
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
    client: 'sqlite3',
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
            'PRAGMA synchronous = NORMAL',
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

/** Cheap reachability probe for readiness checks. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.raw('select 1');
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
