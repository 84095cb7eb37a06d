import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knex from 'knex';
import type { DatabaseConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import type { BenchDatabase } from './options.js';
import { createLogger } from '../src/logging.js';

/** The harness's own database work logs nothing. */
export const silentLogger = createLogger('silent');

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty database for one run, and how to remove it afterwards. */
export interface FreshDatabase {
  engine: BenchDatabase;
  config: DatabaseConfig;
  /** The environment variables that point the service at it. */
  env: Record<string, string>;
  /** A connection of the harness's own (seeding, minting). */
  open(): Database;
  remove(): Promise<void>;
}

/**
 * SQLite: a file in a new temporary directory. PostgreSQL (`BENCH_DATABASE_URL`, or the local
 * server): a schema of its own, dropped afterwards.
 */
export async function createFreshDatabase(engine: BenchDatabase): Promise<FreshDatabase> {
  if (engine === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'hpa-bench-'));
    const filename = join(directory, 'bench.sqlite');
    return {
      engine,
      config: { client: 'sqlite', filename },
      env: { SQLITE_PATH: filename },
      open: () => openDatabase({ client: 'sqlite', filename }, silentLogger),
      remove: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await asAdmin(url, (admin) => admin.raw('create schema ??', [schema]));
  const config: DatabaseConfig = {
    client: 'postgres',
    connectionString: url,
    poolMax: 1,
    searchPath: schema,
  };
  return {
    engine,
    config,
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema },
    open: () => openDatabase(config, silentLogger),
    remove: () => asAdmin(url, (admin) => admin.raw('drop schema if exists ?? cascade', [schema])),
  };
}

async function asAdmin(url: string, work: (admin: knex.Knex) => Promise<unknown>): Promise<void> {
  const admin = knex({ client: 'pg', connection: url, acquireConnectionTimeout: 5000 });
  try {
    await work(admin);
  } finally {
    await admin.destroy();
  }
}

/** The server version, for the machine description. */
export async function databaseVersion(db: Database, engine: BenchDatabase): Promise<string> {
  if (engine === 'sqlite') {
    const [row] = (await db.raw('select sqlite_version() as version')) as Array<{
      version: string;
    }>;
    return `SQLite ${row?.version ?? '?'}`;
  }
  const result = (await db.raw('show server_version')) as {
    rows: Array<{ server_version: string }>;
  };
  return `PostgreSQL ${result.rows[0]?.server_version ?? '?'}`;
}
