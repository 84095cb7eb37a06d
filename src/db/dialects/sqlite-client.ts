import Client_SQLite3 from 'knex/lib/dialects/sqlite3/index.js';
import Transaction_Sqlite from 'knex/lib/dialects/sqlite3/execution/sqlite-transaction.js';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { SqliteReaders } from './sqlite-readers.js';

/**
 * The knex client for the embedded SQLite database, and with it the one way a transaction runs
 * on SQLite (DESIGN §7). Knex's own SQLite transaction is kept, with three changes:
 *
 * - `BEGIN IMMEDIATE` instead of `BEGIN`: the write lock is taken at the start, so a transaction
 *   that reads and then writes never fails half-way with SQLITE_BUSY because another process
 *   (the CLI, a second server) wrote in between; it waits up to the busy timeout instead. A
 *   transaction declared `readOnly` begins deferred: it reads one snapshot and blocks nobody.
 * - A connection found inside a transaction it did not start (something issued BEGIN or
 *   SAVEPOINT and never ended it) is logged as an error and rolled back before the new
 *   transaction begins. Left alone, every later BEGIN fails and every single-statement write
 *   lands in the stray transaction, acknowledged and then lost at exit.
 * - A transaction that did not commit (its work failed, or COMMIT itself failed, which SQLite
 *   allows to leave the transaction open) is rolled back once more before its connection goes
 *   back to the pool; if even that fails, the connection is discarded and the pool opens a
 *   fresh one.
 */
export function sqliteClientClass(
  logger: Logger,
  readers: { size: number; busyTimeoutMs: number },
): typeof Client_SQLite3 {
  class WriterTransaction extends Transaction_Sqlite {
    override async begin(connection: unknown): Promise<void> {
      const begin = this.readOnly ? 'BEGIN DEFERRED;' : 'BEGIN IMMEDIATE;';
      try {
        await this.trxClient.query(connection, begin);
      } catch (error) {
        if (!isNestedBegin(error)) throw error;
        logger.error(
          'SQLite connection was inside a transaction nobody owns: rolling it back. ' +
            'Writes made in it since are lost; this is a bug in whatever opened it.',
        );
        await this.trxClient.query(connection, 'ROLLBACK;');
        await this.trxClient.query(connection, begin);
      }
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
          await this.leaveTransaction(connection);
          throw error;
        }
      });
    }

    private async leaveTransaction(connection: unknown): Promise<void> {
      try {
        await this.client.query(connection, 'ROLLBACK;');
      } catch (error) {
        if (isNoTransaction(error)) return;
        logger.error({ err: error }, 'SQLite rollback failed: discarding the connection');
        (connection as Disposable).__knex__disposed = error;
      }
    }
  }

  return class WriterClient extends Client_SQLite3 {
    // One slot per client, shared by the clients knex derives from it: the migrator's clone
    // copies plain-object properties (lodash merge) but shares class instances like this one.
    private readonly readerPool = new ReaderSlot(this as unknown as Knex.Client);

    // Plain reads outside a transaction go to the reader connections (sqlite-readers.ts);
    // everything else, transactions' reads included, runs on the one writer connection.
    override runner(builder: unknown): unknown {
      const transacting = (this as { transacting?: boolean }).transacting;
      // Absent on a transaction's client, which knex builds from the prototype.
      const holder = this.readerPool as ReaderSlot | undefined;
      if (
        holder &&
        readers.size > 0 &&
        !holder.closed &&
        SqliteReaders.accepts(builder, transacting)
      ) {
        holder.readers ??= new SqliteReaders(
          holder.client as never,
          readers.size,
          readers.busyTimeoutMs,
        );
        // A view of the client that made the slot, whose listeners ('query' events) are the
        // database handle's, even when the first read comes through a clone.
        holder.view ??= holder.readers.clientView(holder.client);
        return super.runner.call(holder.view, builder);
      }
      return super.runner(builder);
    }

    override async destroy(callback?: unknown): Promise<unknown> {
      const holder = this.readerPool as ReaderSlot | undefined;
      if (holder) {
        holder.closed = true;
        await holder.readers?.destroy();
        holder.readers = undefined;
        holder.view = undefined;
      }
      return super.destroy(callback);
    }

    override transaction(container: unknown, config: unknown, outerTx?: unknown): Knex.Transaction {
      return new WriterTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
    }

    override validateConnection(connection: unknown): Promise<boolean> {
      return Promise.resolve(!(connection as Disposable).__knex__disposed);
    }
  };
}

class ReaderSlot {
  constructor(readonly client: Knex.Client) {}
  readers?: SqliteReaders;
  view?: Knex.Client;
  closed?: true;
}

interface Disposable {
  __knex__disposed?: unknown;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isNestedBegin(error: unknown): boolean {
  return messageOf(error).includes('cannot start a transaction within a transaction');
}

function isNoTransaction(error: unknown): boolean {
  return messageOf(error).includes('no transaction is active');
}
