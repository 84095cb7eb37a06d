import { Pool } from 'tarn';
import type { Knex } from 'knex';

/** What the reader pool needs of the SQLite client: opening and closing raw connections. */
export interface RawConnections {
  acquireRawConnection(): Promise<unknown>;
  destroyRawConnection(connection: unknown): Promise<void>;
}

interface SqliteConnection {
  exec(sql: string, callback: (error: Error | null) => void): void;
  /** The id knex gives its pooled connections and reports in its query events. */
  __knexUid?: string;
}

let readersOpened = 0;

/** Query builder internals that say what a query does (knex sets them; none are public API). */
interface BuilderShape {
  _method?: string;
  _connection?: unknown;
  _single?: { lock?: unknown };
}

/** `knex.raw` statements that only read (the dialect's `select` marks them). */
export const readOnlyStatements = new WeakSet<object>();

/** Methods of knex's query builder that only read. */
const READ_METHODS = new Set(['select', 'first', 'pluck']);

/**
 * Read-only connections beside SQLite's one writer. In WAL mode a reader sees every transaction
 * committed before its statement began and never waits for the writer, so reads outside a
 * transaction run in parallel with each other and with the write in progress instead of queueing
 * behind it on the writer's connection. `query_only` makes a write sent here by mistake fail
 * instead of taking the write lock outside the writer's discipline.
 */
export class SqliteReaders {
  /** Read by waitForIdlePool (src/db/database.ts) at shutdown. */
  readonly pool: Pool<unknown>;

  constructor(connections: RawConnections, size: number, busyTimeoutMs: number) {
    this.pool = new Pool({
      min: 0,
      max: size,
      idleTimeoutMillis: 60_000,
      create: async () => {
        const connection = (await connections.acquireRawConnection()) as SqliteConnection;
        connection.__knexUid = `__knexUid_reader${(readersOpened += 1)}`;
        await new Promise<void>((resolve, reject) =>
          connection.exec(
            `PRAGMA busy_timeout = ${busyTimeoutMs}; PRAGMA query_only = ON`,
            (error) => (error ? reject(error) : resolve()),
          ),
        );
        return connection;
      },
      destroy: (connection) => connections.destroyRawConnection(connection),
    });
  }

  /** Whether the query may run on a reader: a plain read, outside any transaction. */
  static accepts(builder: unknown, transacting: boolean | undefined): boolean {
    const query = builder as BuilderShape;
    if (transacting || query._connection !== undefined) return false;
    if (readOnlyStatements.has(query)) return true;
    return READ_METHODS.has(query._method ?? '') && !query._single?.lock;
  }

  /**
   * A view of `client` whose connections come from the readers: knex's runner acquires and
   * releases through its client, and everything else (compiling, running, events) is the
   * client's own.
   */
  clientView(client: Knex.Client): Knex.Client {
    const view = Object.create(client) as Knex.Client;
    view.acquireConnection = () => this.pool.acquire().promise;
    view.releaseConnection = (connection: unknown) => {
      this.pool.release(connection);
      return Promise.resolve();
    };
    return view;
  }

  async destroy(): Promise<void> {
    await this.pool.destroy();
  }
}
