import { createServer } from 'node:http';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { migrateToLatest } from '../../src/db/migrate.js';
import { randomToken } from '../../src/security/random.js';
import type { SharedDependencies } from '../../src/shared-dependencies.js';
import { benchDependencies, createBenchAccounts, type BenchAccounts } from '../accounts.js';
import type { FreshDatabase } from '../database.js';
import type { BenchDatabase } from '../options.js';
import { announce, listenOnLoopback } from './announce.js';
import { readBody, sendJson } from './json-exchange.js';

/** The engine a same-writes peer writes to: PEER_DB, `sqlite` or `postgres`. */
export function peerEngine(): BenchDatabase {
  const engine = process.env.PEER_DB;
  if (engine !== 'sqlite' && engine !== 'postgres')
    throw new Error('PEER_DB is sqlite or postgres');
  return engine;
}

/**
 * Serves a same-writes peer: each request's body goes to `handle`, whose document is answered
 * with 200 (a failure with 500); on SIGTERM the store closes and the database goes.
 */
export async function serveWrites(input: {
  fresh: FreshDatabase;
  store: { close(): Promise<void> };
  bodyLimitBytes: number;
  handle(body: string): Promise<object>;
}): Promise<void> {
  const server = createServer((request, response) => {
    readBody(request, input.bodyLimitBytes)
      .then(input.handle)
      .then(
        (document) => sendJson(response, 200, document),
        (error: unknown) => sendJson(response, 500, { errors: [{ message: String(error) }] }),
      );
  });
  announce(
    await listenOnLoopback(server, async () => {
      await input.store.close();
      await input.fresh.remove();
    }),
  );
}

/**
 * better-sqlite3 on a peer's own file, with the service's durability settings (WAL, synchronous
 * NORMAL, foreign keys on), and a one-row INSERT prepared once per table and columns.
 */
export function peerSqlite(filename: string): {
  db: BetterSqlite3.Database;
  insert(table: string, row: object): void;
} {
  const db = new BetterSqlite3(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const inserts = new Map<string, BetterSqlite3.Statement>();
  const insert = (table: string, row: object) => {
    const columns = Object.keys(row);
    const key = `${table}:${columns.join(',')}`;
    let statement = inserts.get(key);
    if (!statement) {
      statement = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
      );
      inserts.set(key, statement);
    }
    statement.run(row);
  };
  return { db, insert };
}

/** pg in a peer's own schema: `work` in one transaction on a pooled client. */
export function peerPostgres(
  connectionString: string,
  schema: string,
): {
  inTransaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void>;
  close(): Promise<void>;
} {
  const pool = new pg.Pool({ connectionString, max: 10, options: `-c search_path=${schema}` });
  return {
    async inTransaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await work(client);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Migrates a peer's fresh database with the service's migrations and makes the accounts with
 * the harness's own helpers; answers what `pick` takes of them.
 */
export async function preparePeerDatabase<T>(
  fresh: FreshDatabase,
  pick: (shared: SharedDependencies, accounts: BenchAccounts) => T,
): Promise<T> {
  const db = fresh.open();
  try {
    await migrateToLatest(db);
    const shared = benchDependencies(db, randomToken(32));
    return pick(shared, await createBenchAccounts(shared));
  } finally {
    await db.destroy();
  }
}

/** The peer's store on its fresh database, whichever engine that is. */
export function openPeerStore<Store>(
  fresh: FreshDatabase,
  stores: {
    sqlite(filename: string): Store;
    postgres(connectionString: string, schema: string): Store;
  },
): Store {
  const { config } = fresh;
  if (config.client === 'sqlite') return stores.sqlite(config.filename);
  return stores.postgres(config.connectionString, config.searchPath!);
}
