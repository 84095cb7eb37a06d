import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DatabaseConfig } from '../../config.js';
import type { Knex } from 'knex';
import { driverError, type Dialect, type Row } from './dialect.js';
import { sqliteEpochTriggers } from './epoch-triggers.js';
import { sqliteJson } from './json-sql.js';
import { sqliteClientClass } from './sqlite-client.js';
import { readOnlyStatements } from './sqlite-readers.js';
import { sqliteTallyTriggers } from './sqlite-row-tally.js';

type SqliteConfig = Extract<DatabaseConfig, { client: 'sqlite' }>;

/** How long a SQLite writer waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * The embedded SQLite file, the default engine. One writer per process: the pool holds one
 * connection, write transactions begin IMMEDIATE (the database write lock is theirs from the
 * first statement) and read snapshots begin deferred; see sqlite-client.ts. Because a write
 * transaction already holds the whole database against every other writer, row and table locks
 * have nothing left to add here.
 *
 * Durability: WAL mode. With `synchronous = NORMAL` a committed transaction is in the WAL file
 * before COMMIT returns, so it survives SIGKILL of the process; only an OS crash or power loss
 * can drop the last commits. `SQLITE_SYNCHRONOUS=FULL` also syncs the WAL on every commit.
 */
export const sqlite: Dialect = {
  name: 'sqlite',
  knexDialect: 'sqlite3',

  knexConfig(config, logger) {
    const { filename, synchronous, readConnections } = sqliteConfig(config);
    const inMemory = filename === ':memory:';
    if (!inMemory) mkdirSync(dirname(filename), { recursive: true });
    // Another connection to ':memory:' would open another, empty database.
    const readers = { size: inMemory ? 0 : (readConnections ?? 0), busyTimeoutMs: BUSY_TIMEOUT_MS };
    return {
      client: sqliteClientClass(logger, readers),
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(connection: SqliteConnection, done: (error: Error | null) => void) {
          connection.exec(
            [
              'PRAGMA journal_mode = WAL',
              'PRAGMA foreign_keys = ON',
              `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
              `PRAGMA synchronous = ${synchronous ?? 'NORMAL'}`,
            ].join(';'),
            (error) => done(error),
          );
        },
      },
    };
  },

  dataDirectory(config) {
    const { filename } = sqliteConfig(config);
    return filename === ':memory:' ? undefined : dirname(filename);
  },

  exists(config) {
    const { filename } = sqliteConfig(config);
    return filename === ':memory:' || existsSync(filename);
  },

  location(config) {
    const { filename } = sqliteConfig(config);
    const path = filename === ':memory:' ? filename : resolve(filename);
    return {
      fields: { engine: 'sqlite', path },
      text: `SQLite database ${path}`,
      settings: ['SQLITE_PATH'],
    };
  },

  deploymentIdentity(config) {
    const { filename } = sqliteConfig(config);
    // Each connection to ':memory:' is a database of its own.
    return filename === ':memory:'
      ? `sqlite::memory:${randomUUID()}`
      : `sqlite:${resolve(filename)}`;
  },

  // A deferred read-only transaction: its first read fixes a WAL snapshot, and it takes no
  // write lock (sqlite-client.ts begins it DEFERRED instead of IMMEDIATE).
  readSnapshot: { readOnly: true },

  forUpdate: (query) => query,
  forShare: (query) => query,
  serializeOn: () => Promise.resolve(),

  isUniqueViolation(error) {
    const { code, message } = driverError(error);
    return code === 'SQLITE_CONSTRAINT' && message.includes('UNIQUE');
  },

  isForeignKeyViolation(error) {
    const { code, message } = driverError(error);
    return code === 'SQLITE_CONSTRAINT' && message.includes('FOREIGN KEY');
  },

  // Another process held the database past the busy timeout (or a case where SQLite does not
  // wait at all); the statement or BEGIN did nothing.
  isTransientFailure: (error) => driverError(error).code === 'SQLITE_BUSY',

  tallyTriggers: sqliteTallyTriggers,

  epochTriggers: sqliteEpochTriggers,

  json: sqliteJson,

  async select(db, sql, bindings) {
    const raw = db.raw(sql, bindings as Knex.RawBinding[]);
    readOnlyStatements.add(raw);
    return (await raw) as Row[];
  },
};

function sqliteConfig(config: DatabaseConfig): SqliteConfig {
  if (config.client !== 'sqlite') throw new Error(`not a SQLite configuration: ${config.client}`);
  return config;
}

interface SqliteConnection {
  exec(sql: string, callback: (error: Error | null) => void): void;
}
