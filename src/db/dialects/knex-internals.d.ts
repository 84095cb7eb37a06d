// Types for the two knex internals the SQLite writer client extends (knex ships no declarations
// for them). Only what src/db/dialects/sqlite-client.ts uses is declared.
declare module 'knex/lib/dialects/sqlite3/index.js' {
  import type { Knex } from 'knex';
  class Client_SQLite3 extends Knex.Client {}
  export default Client_SQLite3;
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
