import type { Knex } from 'knex';
import type { SqliteConnection } from './sqlite-connection.js';

/** What the reader pool needs of the SQLite client: opening and closing raw connections. */
export interface RawConnections {
  acquireRawConnection(): Promise<unknown>;
  destroyRawConnection(connection: unknown): Promise<void>;
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

/** What waitForIdlePool (src/db/database.ts) reads of the readers at shutdown. */
interface ReadsInFlight {
  numUsed(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * A read-only connection beside SQLite's one writer. In WAL mode a reader sees every transaction
 * committed before its statement began and never waits for the writer, so reads outside a
 * transaction never queue behind a write transaction that holds the writer's connection across
 * awaits. `query_only` makes a write sent here by mistake fail instead of taking the write lock
 * outside the writer's discipline.
 *
 * One connection, shared by every read: the driver is synchronous, so a statement runs whole
 * before the next begins and more connections would never run two at once (figures in
 * docs/reliability.md, "Reads on SQLite").
 */
export class SqliteReaders {
  private connection?: Promise<SqliteConnection>;
  private reading = 0;
  private opening = 0;
  readonly pool: ReadsInFlight = {
    numUsed: () => this.reading,
    numPendingAcquires: () => 0,
    numPendingCreates: () => this.opening,
  };

  constructor(private readonly connections: RawConnections) {}

  private open(): Promise<SqliteConnection> {
    this.opening += 1;
    const opened = (async () => {
      const connection = (await this.connections.acquireRawConnection()) as SqliteConnection;
      connection.__knexUid = `__knexUid_reader${(readersOpened += 1)}`;
      // Waits for a lock happen on a timer in the client's _query (sqlite-connection.ts).
      connection.exec('PRAGMA busy_timeout = 0; PRAGMA query_only = ON');
      return connection;
    })().finally(() => (this.opening -= 1));
    // A connection that failed to open is tried again by the next read.
    opened.catch(() => (this.connection = undefined));
    return opened;
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
    view.acquireConnection = async () => {
      const connection = await (this.connection ??= this.open());
      this.reading += 1;
      return connection;
    };
    view.releaseConnection = () => {
      this.reading -= 1;
      return Promise.resolve();
    };
    return view;
  }

  async destroy(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await this.connections.destroyRawConnection(await connection);
  }
}
