import type BetterSqlite3 from 'better-sqlite3';
import type { SearchRow } from '../../src/job-search/indexed-posting.js';
import { nextSortKey, preferredSortKey } from '../../src/job-search/sort-key.js';
import type { PostingRows } from './same-posting-writes-rows.js';
import { insertRows } from './same-writes-stores.js';
import { peerPostgres, peerSqlite } from './writes-peer.js';

/** Writes one request's postings and their search documents in one durable transaction. */
export interface PostingRowsStore {
  write(rows: PostingRows): Promise<void>;
  close(): Promise<void>;
}

const SEARCH_TABLE = 'job_search_postings';

/** Each row's preferred sort key: its second, and the tiebreak its id hashes to. */
function preferredKeys(rows: PostingRows['searchRows']): number[] {
  return rows.map((row) => preferredSortKey(row.date_published, row.sourced_posting_id));
}

/**
 * One step of picking free sort keys, as the service's SearchStore does: each key of `checking`
 * that a stored row holds (`taken`), and each key an earlier row of the batch claimed, moves on
 * within its second. Answers the moved rows, whose new keys are to be checked in turn.
 */
function moveTaken(keys: number[], checking: readonly number[], taken: Set<number>): number[] {
  const checked = new Set(checking);
  const claimed = new Set<number>();
  const moved: number[] = [];
  keys.forEach((key, index) => {
    if (claimed.has(key) || (checked.has(index) && taken.has(key))) {
      keys[index] = nextSortKey(key);
      moved.push(index);
    } else claimed.add(key);
  });
  return moved;
}

const allIndexes = (keys: readonly number[]) => keys.map((_key, index) => index);

function withKeys(rows: PostingRows['searchRows'], keys: readonly number[]): SearchRow[] {
  return rows.map((row, index) => ({ sort_key: keys[index]!, ...row }));
}

/**
 * better-sqlite3 on the peer's own file; each request in a BEGIN IMMEDIATE transaction: the
 * postings, the taken sort keys looked up, the search rows, one INSERT per row.
 */
export function sqlitePostingStore(filename: string): PostingRowsStore {
  const { db, insert } = peerSqlite(filename);
  const lookups = new Map<number, BetterSqlite3.Statement>();
  const taken = (keys: number[]) => {
    let lookup = lookups.get(keys.length);
    if (!lookup) {
      const list = keys.map(() => '?').join(', ');
      lookup = db.prepare(`SELECT sort_key FROM ${SEARCH_TABLE} WHERE sort_key IN (${list})`);
      lookups.set(keys.length, lookup);
    }
    return new Set((lookup.pluck().all(...keys) as number[]).map(Number));
  };
  const writeAll = db.transaction((rows: PostingRows) => {
    for (const row of rows.postings) insert('job_postings', row);
    const keys = preferredKeys(rows.searchRows);
    for (let checking = allIndexes(keys); checking.length;) {
      checking = moveTaken(keys, checking, taken(checking.map((index) => keys[index]!)));
    }
    for (const row of withKeys(rows.searchRows, keys)) insert(SEARCH_TABLE, row);
  });
  return {
    write: async (rows) => writeAll.immediate(rows),
    close: async () => void db.close(),
  };
}

/**
 * pg in the peer's own schema: each request in one transaction, one INSERT per table and the
 * taken sort keys looked up.
 */
export function postgresPostingStore(connectionString: string, schema: string): PostingRowsStore {
  const database = peerPostgres(connectionString, schema);
  return {
    write: (rows) =>
      database.inTransaction(async (client) => {
        await insertRows(client, 'job_postings', rows.postings);
        const keys = preferredKeys(rows.searchRows);
        for (let checking = allIndexes(keys); checking.length;) {
          const taken = await client.query<{ sort_key: string }>(
            `SELECT sort_key FROM ${SEARCH_TABLE} WHERE sort_key = ANY($1::bigint[])`,
            [checking.map((index) => keys[index]!)],
          );
          const stored = new Set(taken.rows.map((row) => Number(row.sort_key)));
          checking = moveTaken(keys, checking, stored);
        }
        await insertRows(client, SEARCH_TABLE, withKeys(rows.searchRows, keys));
      }),
    close: () => database.close(),
  };
}
