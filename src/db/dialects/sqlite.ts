import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DatabaseConfig } from '../../config.js';
import type { Knex } from 'knex';
import { driverError, type Dialect, type Row, type SynchronousStatements } from './dialect.js';
import { sqliteEpochTriggers } from './epoch-triggers.js';
import { sqliteJson } from './json-sql.js';
import { sqliteTextIndex } from './sqlite-text-search.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { sqliteClientClass } from './sqlite-client.js';
import { isBusy, untilNotBusy, type SqliteConnection } from './sqlite-connection.js';
import { readOnlyStatements } from './sqlite-readers.js';
import { sqliteTallyTriggers } from './sqlite-row-tally.js';

type SqliteConfig = Extract<DatabaseConfig, { client: 'sqlite' }>;

/**
 * How long a statement waits for another process's lock before failing with SQLITE_BUSY; on a
 * timer, never blocking the event loop (sqlite-connection.ts `untilNotBusy`).
 */
const BUSY_LIMIT_MS = 5000;

/** WAL frames (pages) past which a checkpoint runs, unless configured (SQLite's own default). */
export const DEFAULT_CHECKPOINT_PAGES = 1000;

/**
 * The embedded SQLite file, the default engine, through better-sqlite3 (a synchronous driver:
 * a statement runs on the main thread, with no hop through libuv's threads). One writer per process: the pool holds one
 * connection, write transactions begin IMMEDIATE (the database write lock is theirs from the
 * first statement) and read snapshots begin deferred; see sqlite-client.ts. Because a write
 * transaction already holds the whole database against every other writer, row and table locks
 * have nothing left to add here.
 *
 * Durability: WAL mode. With `synchronous = NORMAL` a committed transaction is in the WAL file
 * before COMMIT returns, so it survives SIGKILL of the process; only an OS crash or power loss
 * can drop the last commits. `SQLITE_SYNCHRONOUS=FULL` also syncs the WAL on every commit.
 * Checkpoints (copying the WAL into the database file) run on a thread of their own, off the
 * event loop (sqlite-checkpointer.ts); `checkpointPages = 0` leaves them to SQLite's automatic
 * checkpoint inside the writer's COMMIT.
 */
export const sqlite: Dialect = {
  name: 'sqlite',
  // knex's better-sqlite3 client inherits its `dialect` from the sqlite3 client it extends.
  knexDialect: 'sqlite3',

  knexConfig(config, logger) {
    const { filename, synchronous = 'NORMAL', readConnections } = sqliteConfig(config);
    const { checkpointPages = DEFAULT_CHECKPOINT_PAGES } = sqliteConfig(config);
    const inMemory = filename === ':memory:';
    if (!inMemory) mkdirSync(dirname(filename), { recursive: true });
    // Another connection to ':memory:' would open another, empty database.
    const readers = inMemory ? 0 : (readConnections ?? 0);
    // An in-memory database has no WAL.
    const checkpointer =
      inMemory || checkpointPages === 0
        ? undefined
        : new SqliteCheckpointer({ filename, synchronous, pages: checkpointPages }, logger);
    return {
      client: sqliteClientClass(logger, { readers, busyLimitMs: BUSY_LIMIT_MS, checkpointer }),
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(connection: SqliteConnection, done: (error: Error | null) => void) {
          // busy_timeout first: better-sqlite3 opens with 5 s, which would sleep on the main
          // thread; switching a new file to WAL takes a lock another process may hold.
          connection.pragma('busy_timeout = 0');
          untilNotBusy(BUSY_LIMIT_MS, () =>
            connection.exec(
              [
                'PRAGMA journal_mode = WAL',
                'PRAGMA foreign_keys = ON',
                `PRAGMA synchronous = ${synchronous}`,
              ].join(';'),
            ),
          ).then(
            () => {
              checkpointer?.adopt(connection);
              done(null);
            },
            (error: Error) => done(error),
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
  skipLocked: (query) => query,
  serializeOn: () => Promise.resolve(),
  serializeOnKeys: () => Promise.resolve(),

  // better-sqlite3 reports SQLite's extended result codes.
  isUniqueViolation(error) {
    const { code } = driverError(error);
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },

  isForeignKeyViolation: (error) => driverError(error).code === 'SQLITE_CONSTRAINT_FOREIGNKEY',

  // Another process held the database past the limit (SQLITE_BUSY), or a read snapshot's view
  // went stale under a writer (SQLITE_BUSY_SNAPSHOT), ...: the statement or BEGIN did nothing,
  // or the transaction was rolled back (sqlite-connection.ts `mayRetryBusy`).
  isTransientFailure: (error) => isBusy(error),

  writeInOneCall: (db, work) => (db.client as unknown as OneCallWriter).writeInOneCall(work),

  tallyTriggers: sqliteTallyTriggers,

  epochTriggers: sqliteEpochTriggers,

  json: sqliteJson,
  textIndex: sqliteTextIndex,

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

/** The part of sqlite-client.ts's client that group commit reaches through the dialect. */
interface OneCallWriter {
  writeInOneCall<T>(work: (statements: SynchronousStatements) => T): Promise<T>;
}
