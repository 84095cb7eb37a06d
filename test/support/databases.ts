import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knex from 'knex';
import type { DatabaseConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { silentLogger } from './logger.js';

export type Dialect = DatabaseConfig['client'];

export interface TestDatabase {
  dialect: Dialect;
  db: Database;
  config: DatabaseConfig;
  /** Environment variables that point a child process (the CLI, the server) at this database. */
  env: Record<string, string>;
}

/** Where PostgreSQL runs on every development and CI machine; override with TEST_DATABASE_URL. */
export const POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** How the tests get a fresh, empty database of one engine. */
interface MatrixEntry {
  /** False (saying why, once) when the engine cannot be reached here: its runs are skipped. */
  available(): Promise<boolean>;
  /** Where a new database is, and how to remove it once the suite is done with it. */
  create(): Promise<{
    config: DatabaseConfig;
    env: Record<string, string>;
    remove(db: Database): Promise<void>;
  }>;
}

let postgresReachable: Promise<boolean> | undefined;

/** Whether PostgreSQL answers at POSTGRES_URL; when not, says so once, visibly. */
export function isPostgresReachable(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const probe = knex({ client: 'pg', connection: POSTGRES_URL, acquireConnectionTimeout: 3000 });
    try {
      await probe.raw('select 1');
      return true;
    } catch (error) {
      if (process.env.REQUIRE_POSTGRES === '1') {
        throw new Error(
          `PostgreSQL is unreachable at ${POSTGRES_URL} and REQUIRE_POSTGRES=1 (as in CI): ` +
            (error as Error).message,
          { cause: error },
        );
      }
      console.log(
        `      ! PostgreSQL is unreachable at ${POSTGRES_URL} (${(error as Error).message}); ` +
          'skipping the PostgreSQL runs',
      );
      return false;
    } finally {
      await probe.destroy();
    }
  })();
  return postgresReachable;
}

/**
 * The test matrix: every engine the data-layer suites run on (src/db/dialects/ has one dialect
 * for each). Another engine is one more entry here.
 */
const MATRIX: Record<Dialect, MatrixEntry> = {
  sqlite: {
    available: () => Promise.resolve(true),
    async create() {
      const directory = mkdtempSync(join(tmpdir(), 'hpa-test-'));
      const filename = join(directory, 'service.sqlite');
      return {
        // As configured by default: reads outside transactions on reader connections.
        config: { client: 'sqlite', filename, readConnections: 4 },
        env: { SQLITE_PATH: filename, DATABASE_URL: '' },
        async remove(db) {
          await db.destroy();
          rmSync(directory, { recursive: true, force: true });
        },
      };
    },
  },
  postgres: {
    available: isPostgresReachable,
    async create() {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      const admin = knex({ client: 'pg', connection: POSTGRES_URL });
      await admin.raw('create schema ??', [schema]);
      await admin.destroy();
      return {
        config: {
          client: 'postgres',
          connectionString: POSTGRES_URL,
          poolMax: 5,
          searchPath: schema,
        },
        env: { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema },
        async remove(db) {
          await db.raw('drop schema if exists ?? cascade', [schema]);
          await db.destroy();
        },
      };
    },
  },
};

/** Every engine of the matrix. */
export const DIALECTS = Object.keys(MATRIX) as Dialect[];

/** A fresh, empty database of one dialect: a temporary SQLite file or a new PostgreSQL schema. */
export async function createTestDatabase(
  dialect: Dialect,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase & { dispose(): Promise<void> }> {
  const { config, env, remove } = await MATRIX[dialect].create();
  const db = openDatabase(config, silentLogger);
  if (options.migrate !== false) await migrateToLatest(db);
  return { dialect, db, config, env, dispose: () => remove(db) };
}

/**
 * Declares a suite once per dialect. Each run gets its own database, created before its first
 * test and dropped after its last. The PostgreSQL run is skipped, with a visible line, only when
 * the server cannot be reached.
 */
export function describeEachDialect(
  title: string,
  body: (database: () => TestDatabase) => void,
  options: { migrate?: boolean; timeoutMs?: number } = {},
): void {
  for (const dialect of DIALECTS) {
    describe(`${title} [${dialect}]`, function () {
      if (options.timeoutMs !== undefined) this.timeout(options.timeoutMs);
      let current: (TestDatabase & { dispose(): Promise<void> }) | undefined;
      before(async function () {
        if (!(await MATRIX[dialect].available())) this.skip();
        current = await createTestDatabase(dialect, options);
      });
      after(async () => {
        await current?.dispose();
      });
      body(() => {
        if (!current) throw new Error('test database is not ready');
        return current;
      });
    });
  }
}
