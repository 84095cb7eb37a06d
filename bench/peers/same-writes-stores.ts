import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { columnsOf, type EventRows } from './same-writes-rows.js';

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

/**
 * better-sqlite3 on the peer's own file, with the service's durability settings: WAL,
 * synchronous NORMAL, foreign keys on; each event in a BEGIN IMMEDIATE transaction.
 */
export function sqliteEventStore(filename: string): EventRowsStore {
  const db = new BetterSqlite3(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const inserts = new Map<string, BetterSqlite3.Statement>();
  const insert = (table: Table, row: object) => {
    const key = `${table}:${Object.keys(row).join(',')}`;
    let statement = inserts.get(key);
    if (!statement) {
      const columns = Object.keys(row);
      statement = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
      );
      inserts.set(key, statement);
    }
    statement.run(row);
  };
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
  const pool = new pg.Pool({ connectionString, max: 10, options: `-c search_path=${schema}` });
  return {
    async write(rows) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const [table, each] of tableRows(rows)) {
          const { columns, values } = columnsOf(each);
          let parameter = 0;
          const tuples = values.map((row) => `(${row.map(() => `$${++parameter}`).join(', ')})`);
          await client.query(
            `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`,
            values.flat(),
          );
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
