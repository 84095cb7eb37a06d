import Client_BetterSQLite3 from 'knex/lib/dialects/better-sqlite3/index.js';
import Transaction_Sqlite from 'knex/lib/dialects/sqlite3/execution/sqlite-transaction.js';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { SynchronousStatements } from './dialect.js';
import {
  isBusy,
  leaveStrayTransaction,
  mayRetryBusy,
  prepared,
  rollBackOrDiscard,
  untilNotBusy,
  type SqliteConnection,
} from './sqlite-connection.js';
import type { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteReaders } from './sqlite-readers.js';

/** What knex hands its client's `_query`: the compiled statement, filled with the response. */
interface QueryObject {
  sql?: string;
  bindings?: unknown[];
  response?: unknown;
  context?: { lastID: unknown; changes: number };
}

/**
 * The knex client for the embedded SQLite database through better-sqlite3, a synchronous driver,
 * and with it the one way a transaction runs on SQLite (DESIGN §7). Knex's own client and
 * transaction are kept, with these changes:
 *
 * - Statements are prepared once per connection (sqlite-connection.ts `prepared`), and one that
 *   meets another process's lock waits on a timer, never on the main thread (`untilNotBusy`).
 * - `BEGIN IMMEDIATE` instead of `BEGIN`: the write lock is taken at the start, so a transaction
 *   that reads and then writes never fails half-way with SQLITE_BUSY because another process
 *   (the CLI, a second server) wrote in between; it waits for the lock instead. A transaction
 *   declared `readOnly` begins deferred: it reads one snapshot and blocks nobody.
 * - A connection found inside a transaction it did not start is logged as an error and rolled
 *   back before the new transaction begins (`leaveStrayTransaction`).
 * - A transaction that did not commit is rolled back once more before its connection goes back
 *   to the pool; if even that fails, the connection is discarded (`rollBackOrDiscard`).
 * - `writeInOneCall`: a whole write transaction as one synchronous call (group commit).
 */
export function sqliteClientClass(
  logger: Logger,
  options: { readers: number; busyLimitMs: number; checkpointer?: SqliteCheckpointer },
): typeof Client_BetterSQLite3 {
  class WriterTransaction extends Transaction_Sqlite {
    override async begin(connection: SqliteConnection): Promise<void> {
      leaveStrayTransaction(connection, logger);
      if (!this.readOnly) await options.checkpointer?.untilWalBounded();
      await this.trxClient.query(
        connection,
        this.readOnly ? 'BEGIN DEFERRED;' : 'BEGIN IMMEDIATE;',
      );
    }

    override async acquireConnection<T>(
      config: { connection?: unknown } | undefined,
      work: (connection: unknown) => Promise<T>,
    ): Promise<T> {
      // A nested transaction (a savepoint) shares its parent's connection; only the outermost
      // one decides what state the connection goes back to the pool in.
      if (this.client.transacting) return super.acquireConnection(config, work);
      return super.acquireConnection(config, async (connection) => {
        try {
          return await work(connection);
        } catch (error) {
          rollBackOrDiscard(connection as SqliteConnection, logger);
          throw error;
        }
      });
    }
  }

  return class WriterClient extends Client_BetterSQLite3 {
    // One slot per client, shared by the clients knex derives from it: the migrator's clone
    // copies plain-object properties (lodash merge) but shares class instances like this one.
    private readonly readerPool = new ReaderSlot(this as unknown as Knex.Client);

    /** Runs the WAL checkpoints off the event loop (sqlite-checkpointer.ts), unless opted out. */
    readonly checkpointer = options.checkpointer;

    // Plain reads outside a transaction go to the reader connection (sqlite-readers.ts);
    // everything else, transactions' reads included, runs on the one writer connection.
    override runner(builder: unknown): unknown {
      const transacting = (this as { transacting?: boolean }).transacting;
      // Absent on a transaction's client, which knex builds from the prototype.
      const holder = this.readerPool as ReaderSlot | undefined;
      if (
        holder &&
        options.readers > 0 &&
        !holder.closed &&
        SqliteReaders.accepts(builder, transacting)
      ) {
        holder.readers ??= new SqliteReaders(holder.client as never);
        // A view of the client that made the slot, whose listeners ('query' events) are the
        // database handle's, even when the first read comes through a clone.
        holder.view ??= holder.readers.clientView(holder.client);
        return super.runner.call(holder.view, builder);
      }
      return super.runner(builder);
    }

    override async _query(connection: SqliteConnection, query: QueryObject): Promise<QueryObject> {
      const { sql } = query;
      if (!sql) throw new Error('The query is empty');
      const bindings = this._formatBindings(query.bindings);
      // A write in a transaction of its own (no BEGIN) waits like a transaction's BEGIN.
      if (options.checkpointer && !connection.inTransaction && writes(connection, sql)) {
        await options.checkpointer.untilWalBounded();
      }
      let inTransaction = false;
      let statement: ReturnType<typeof prepared> | undefined;
      return untilNotBusy(
        options.busyLimitMs,
        () => {
          inTransaction = connection.inTransaction;
          statement = undefined;
          statement = prepared(connection, sql);
          if (statement.reader) {
            query.response = statement.all(bindings);
          } else {
            const result = statement.run(bindings);
            query.response = result;
            query.context = { lastID: result.lastInsertRowid, changes: result.changes };
          }
          return query;
        },
        (error) => isBusy(error) && mayRetryBusy(inTransaction, statement),
      );
    }

    /**
     * Runs `work` as one write transaction in a single synchronous call on the writer: BEGIN
     * IMMEDIATE, its statements, COMMIT. The connection comes from knex's pool, so this never
     * interleaves with a knex transaction that holds it across awaits. Only BEGIN can meet
     * another process's lock (the write lock is ours after it); it is retried on a timer.
     */
    async writeInOneCall<T>(work: (statements: SynchronousStatements) => T): Promise<T> {
      await options.checkpointer?.untilWalBounded();
      const connection = (await this.acquireConnection()) as SqliteConnection;
      try {
        let begun = false;
        return await untilNotBusy(
          options.busyLimitMs,
          () => {
            begun = false;
            leaveStrayTransaction(connection, logger);
            this.runNow(connection, 'BEGIN IMMEDIATE;');
            begun = true;
            try {
              const result = work({
                run: (query) => void this.runNow(connection, query),
                rows: (query) => this.runNow(connection, query) as never,
              });
              this.runNow(connection, 'COMMIT;');
              return result;
            } catch (error) {
              rollBackOrDiscard(connection, logger);
              throw error;
            }
          },
          (error) => isBusy(error) && !begun,
        );
      } finally {
        await this.releaseConnection(connection);
      }
    }

    /**
     * One statement, now, with the query events knex's runner would emit (metrics and tests
     * count statements by them): the rows of a reader, else undefined.
     */
    private runNow(
      connection: SqliteConnection,
      query: string | Knex.QueryBuilder,
    ): unknown[] | undefined {
      const compiled: { sql: string; bindings: readonly unknown[]; method?: string } =
        typeof query === 'string' ? { sql: query, bindings: [], method: 'raw' } : query.toSQL();
      const event = { ...compiled, __knexUid: connection.__knexUid };
      this.emit('query', event);
      // knex's instrumentation traces its runner, which these statements bypass.
      const table = typeof query === 'string' ? undefined : tableOf(query);
      const span = tracer.startSpan(table ? `${compiled.method} ${table}` : compiled.sql, {
        attributes: { 'db.system.name': 'sqlite', 'db.collection.name': table },
      });
      try {
        const statement = prepared(connection, compiled.sql);
        const bindings = this._formatBindings([...compiled.bindings]);
        const rows = statement.reader
          ? statement.all(bindings)
          : (statement.run(bindings), undefined);
        this.emit('query-response', rows, event);
        return rows;
      } catch (error) {
        this.emit('query-error', error, event);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    }

    override async destroy(callback?: unknown): Promise<unknown> {
      const holder = this.readerPool as ReaderSlot | undefined;
      if (holder) {
        holder.closed = true;
        await holder.readers?.destroy();
        holder.readers = undefined;
        holder.view = undefined;
      }
      await options.checkpointer?.stop();
      const destroyed = await super.destroy(callback);
      options.checkpointer?.release();
      return destroyed;
    }

    override transaction(container: unknown, config: unknown, outerTx?: unknown): Knex.Transaction {
      return new WriterTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
    }

    override validateConnection(connection: unknown): Promise<boolean> {
      return Promise.resolve(!(connection as SqliteConnection).__knex__disposed);
    }
  };
}

/** Spans of the statements `writeInOneCall` runs (a no-op unless tracing is on). */
const tracer = trace.getTracer('hiring-partner-api/sqlite-one-call');

/** Whether `sql` writes; false when it cannot even be prepared now (the attempt will say why). */
function writes(connection: SqliteConnection, sql: string): boolean {
  try {
    return !prepared(connection, sql).reader;
  } catch {
    return false;
  }
}

function tableOf(query: Knex.QueryBuilder): string | undefined {
  return (query as unknown as { _single?: { table?: unknown } })._single?.table as
    string | undefined;
}

class ReaderSlot {
  constructor(readonly client: Knex.Client) {}
  readers?: SqliteReaders;
  view?: Knex.Client;
  closed?: true;
}
