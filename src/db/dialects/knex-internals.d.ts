// Types for the two knex internals the SQLite writer client extends (knex ships no declarations
// for them; knex is pinned because of them). Only what src/db/dialects/sqlite-client.ts uses is
// declared.
declare module 'knex/lib/dialects/better-sqlite3/index.js' {
  import type { Knex } from 'knex';
  class Client_BetterSQLite3 extends Knex.Client {
    _query(connection: unknown, query: unknown): Promise<unknown>;
    _formatBindings(bindings: unknown[] | undefined): unknown[];
    emit(event: string, ...args: unknown[]): boolean;
  }
  export default Client_BetterSQLite3;
}

declare module 'knex/lib/dialects/sqlite3/execution/sqlite-transaction.js' {
  import type { Knex } from 'knex';
  class Transaction_Sqlite {
    constructor(client: Knex.Client, ...args: unknown[]);
    client: Knex.Client & { transacting?: boolean };
    readOnly?: boolean;
    trxClient: { query(connection: unknown, sql: string): Promise<unknown> };
    begin(connection: unknown): Promise<unknown>;
    acquireConnection<T>(
      config: { connection?: unknown } | undefined,
      work: (connection: unknown) => Promise<T>,
    ): Promise<T>;
  }
  export default Transaction_Sqlite;
}
