import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { DatabaseConfig } from '../../config.js';
import type { RowTally, TallyTriggers } from './row-tally.js';
import type { EpochTriggers } from './epoch-triggers.js';
import type { JsonSql } from './json-sql.js';
import type { NotificationChannel, NotificationChannelOptions } from './notification-channel.js';
import type { TextIndexSql } from './text-search.js';

/**
 * Everything that differs between the database engines the service runs on, and the only place
 * that knows it. Stores reach it as `this.dialect` (src/db/store.ts); the transaction helper
 * (src/db/transactions.ts), `openDatabase` and the error checks of src/db/errors.ts ask it too.
 * Nothing else in src/ names an engine (test/db/data-layer-boundaries.test.ts fails if it does).
 *
 * Another engine is one more implementation of this interface, listed in ./index.ts, plus its
 * entry in the test matrix (test/support/databases.ts) and its variant of DatabaseConfig.
 *
 * Not here, because knex already writes them the same way on every engine we run on (and the
 * test matrix would catch one that differs): upserts (`onConflict(...).merge()` / `.ignore()`,
 * `excluded.<column>` in a merge), `returning(...)` after an insert or upsert, and JSON, which is
 * stored as text that the code encodes and decodes. Instants are BIGINT epoch milliseconds and
 * read back as numbers on every engine (PostgreSQL's parser is set in ./postgres.ts).
 */
export interface Dialect {
  /** The engine's name in DatabaseConfig (`client`). */
  readonly name: DatabaseConfig['client'];

  /** knex's name for its client of this engine (`client.dialect`): how a handle is recognised. */
  readonly knexDialect: string;

  /**
   * The knex configuration that opens the database as DESIGN §7 wants it (its pool, connection
   * settings, durability); prepares what must exist first (a database file's directory).
   */
  knexConfig(config: DatabaseConfig, logger: Logger): Knex.Config;

  /** The directory that holds the database's files when the engine is embedded; else undefined. */
  dataDirectory(config: DatabaseConfig): string | undefined;

  /**
   * Whether the database exists before it is opened: opening an embedded engine's missing file
   * would create an empty database, which only the server and `npm run migrate` may do.
   */
  exists(config: DatabaseConfig): boolean;

  /** Where the data is, for people and for JSON output: never a credential. */
  location(config: DatabaseConfig): DatabaseLocation;

  /**
   * Names the data a configuration opens, without credentials: the same in every process that
   * shares it, different for any other deployment. Namespaces what processes say to each other
   * outside the database (Redis channels, src/realtime/).
   */
  deploymentIdentity(config: DatabaseConfig): string;

  /** The engine's own publish/subscribe between processes; absent where it has none. */
  openNotificationChannel?(
    config: DatabaseConfig,
    options: NotificationChannelOptions,
  ): NotificationChannel;

  /**
   * Options of a read snapshot: a read-only transaction whose reads all see one state of the
   * database, and which makes no writer wait.
   */
  readonly readSnapshot: Knex.TransactionConfig;

  /**
   * `query`, made to lock the rows it reads until the (write) transaction ends, against every
   * other writer and locker of those rows.
   */
  forUpdate<Query extends Knex.QueryBuilder>(query: Query): Query;

  /**
   * `query`, made to hold the rows it reads until the (write) transaction ends: nobody changes
   * or deletes them meanwhile, while other holders may hold them too.
   */
  forShare<Query extends Knex.QueryBuilder>(query: Query): Query;

  /**
   * `query`, made to lock the rows of `table` it reads until the (write) transaction ends,
   * passing over rows another transaction holds instead of waiting for them: how workers of
   * several processes claim disjoint rows from one queue. Where one writer holds the whole
   * database for the transaction, nothing else can hold a row and the query is unchanged.
   */
  skipLocked<Query extends Knex.QueryBuilder>(query: Query, table: string): Query;

  /**
   * Makes write transactions that call this for the same table take turns, from the call until
   * they end (rows they insert count too, which row locks cannot cover).
   */
  serializeOn(tx: Knex.Transaction, table: string): Promise<void>;

  /**
   * As `serializeOn`, for the rows of `table` under these keys only: write transactions that
   * call this with a key in common take turns, from the call until they end, whether or not a
   * row holds the key yet. A transaction that calls this once, before it reads or writes those
   * rows, never deadlocks with another that does the same (the keys are taken in one order).
   */
  serializeOnKeys(tx: Knex.Transaction, table: string, keys: readonly string[]): Promise<void>;

  /** The error is this engine's report of a violated UNIQUE (or primary key) constraint. */
  isUniqueViolation(error: unknown): boolean;

  /** The error is this engine's report of a violated FOREIGN KEY constraint. */
  isForeignKeyViolation(error: unknown): boolean;

  /**
   * The error says the engine gave up on a statement or transaction because of other work going
   * on at the same time (a deadlock, a serialization failure, a lock it waited for too long), and
   * undid it: running the same work again may succeed (src/db/transactions.ts does).
   */
  isTransientFailure(error: unknown): boolean;

  /**
   * Runs `work` as one write transaction in a single synchronous call on the engine's writer,
   * statements and COMMIT included, where the driver is synchronous (SQLite); absent where it is
   * not. Rejects with what `work` threw, after rolling back. Only src/db/transactions.ts calls it.
   */
  writeInOneCall?<T>(db: Knex, work: (statements: SynchronousStatements) => T): Promise<T>;

  /** The triggers that keep a tally of a table's rows (./row-tally.ts), in this engine's SQL. */
  tallyTriggers(tally: RowTally): TallyTriggers;

  /** Triggers that move change epoch `epoch` on every update or delete of `tables`. */
  epochTriggers(tables: string[], epoch: string): EpochTriggers;

  /** JSON built in SQL: a row with the rows that belong to it in one statement (./json-sql.ts). */
  readonly json: JsonSql;

  /** A full-text index over a table, searched newest first (./text-search.ts). */
  readonly textIndex: TextIndexSql;

  /**
   * Runs a `select` given as SQL text (with `?` placeholders) and its bindings, and answers its
   * rows: how stores run SQL they built once per shape instead of once per call. Outside a
   * transaction it is a plain read, run where the engine runs plain reads.
   */
  select(db: Knex | Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[]>;
}

/** Statements run at once, inside `Dialect.writeInOneCall`: built with knex, never awaited. */
export interface SynchronousStatements {
  run(query: Knex.QueryBuilder): void;
  /** The rows a reading query returns. */
  rows<Row>(query: Knex.QueryBuilder): Row[];
}
/** A row as the driver answers it, before a store gives it its type. */
export type Row = Record<string, unknown>;

/** Where a database is, as the operator configured it (no credentials). */
export interface DatabaseLocation {
  /** Its fields (`engine` first), for machine-readable output. */
  fields: { engine: DatabaseConfig['client'] } & Record<string, string>;
  /** One phrase: "SQLite database ./data/service.sqlite". */
  text: string;
  /** The environment variables that choose it, for a message that says what to check. */
  settings: readonly string[];
}

/** The `code` and `message` of a driver error, whatever its shape. */
export function driverError(error: unknown): { code?: unknown; message: string } {
  if (!error || typeof error !== 'object') return { message: '' };
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code, message: typeof message === 'string' ? message : '' };
}
