import type pg from 'pg';
import { columnsOf, type EventRows } from './same-writes-rows.js';
import { peerPostgres, peerSqlite } from './writes-peer.js';

/** Writes one event's rows in one durable transaction. */
export interface EventRowsStore {
  write(rows: EventRows): Promise<void>;
  close(): Promise<void>;
}

type Table = 'interview_events' | 'interviewers' | 'interviewees' | 'lobby_tokens';

/** The tables in the order the rows go in (the event first: the others refer to it). */
function tableRows(rows: EventRows): Array<[Table, readonly object[]]> {
  return [
    ['interview_events', [rows.event]],
    ['interviewers', rows.interviewers],
    ['interviewees', [rows.interviewee]],
    ['lobby_tokens', rows.lobbyTokens],
  ];
}

/** better-sqlite3 on the peer's own file; each event in a BEGIN IMMEDIATE transaction. */
export function sqliteEventStore(filename: string): EventRowsStore {
  const { db, insert } = peerSqlite(filename);
  const writeAll = db.transaction((rows: EventRows) => {
    for (const [table, each] of tableRows(rows)) for (const row of each) insert(table, row);
  });
  return {
    write: async (rows) => writeAll.immediate(rows),
    close: async () => void db.close(),
  };
}

/** pg in the peer's own schema: each event in one transaction, one INSERT per table. */
export function postgresEventStore(connectionString: string, schema: string): EventRowsStore {
  const database = peerPostgres(connectionString, schema);
  return {
    write: (rows) =>
      database.inTransaction(async (client) => {
        for (const [table, each] of tableRows(rows)) await insertRows(client, table, each);
      }),
    close: () => database.close(),
  };
}

/** One INSERT of every row (each with the same columns) into `table`. */
export async function insertRows(
  client: pg.ClientBase,
  table: string,
  rows: readonly object[],
): Promise<void> {
  const { columns, values } = columnsOf(rows);
  let parameter = 0;
  const tuples = values.map((row) => `(${row.map(() => `$${++parameter}`).join(', ')})`);
  await client.query(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`,
    values.flat(),
  );
}
