import { Gauge, register } from 'prom-client';
import type { Database } from '../db/database.js';
import { dbQueryDuration } from './instruments.js';

/** What knex's `query`, `query-response` and `query-error` events carry about a statement. */
interface QueryEvent {
  __knexQueryUid?: string;
  method?: string;
  sql?: string;
}

/** The tarn pool behind a knex instance (absent before the first query and after destroy). */
interface PoolCounts {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * A statement whose end knex reports only to its query builder (a statement timeout) never
 * leaves the table of started statements; past this many the table is cleared.
 */
const MOST_STATEMENTS_IN_FLIGHT = 10_000;

const observed = new Set<Database>();

new Gauge({
  name: 'db_pool_connections',
  help: 'Database pool connections in use, idle, and acquisitions waiting for one',
  labelNames: ['state'] as const,
  registers: [register],
  // Read from the pool at scrape time: nothing is counted on the query path.
  collect() {
    let used = 0;
    let free = 0;
    let pending = 0;
    for (const db of observed) {
      const pool = (db.client as { pool?: PoolCounts }).pool;
      if (!pool) continue;
      used += pool.numUsed();
      free += pool.numFree();
      pending += pool.numPendingAcquires();
    }
    this.set({ state: 'used' }, used);
    this.set({ state: 'free' }, free);
    this.set({ state: 'pending_acquires' }, pending);
  },
});

/**
 * Times every statement `db` runs into db_query_duration_seconds and reports its pool in
 * db_pool_connections. Returns the function that stops both (before the pool is destroyed).
 */
export function observeDatabase(db: Database): () => void {
  const started = new Map<string, number>();
  const onQuery = (query: QueryEvent) => {
    // Statements knex runs outside a query builder (BEGIN, COMMIT) have no id and no end event.
    if (query.__knexQueryUid === undefined) return;
    if (started.size >= MOST_STATEMENTS_IN_FLIGHT) started.clear();
    started.set(query.__knexQueryUid, performance.now());
  };
  const onEnd = (_result: unknown, query: QueryEvent) => {
    if (query.__knexQueryUid === undefined) return;
    const at = started.get(query.__knexQueryUid);
    if (at === undefined) return;
    started.delete(query.__knexQueryUid);
    dbQueryDuration.observe({ operation: operationOf(query) }, (performance.now() - at) / 1000);
  };
  db.on('query', onQuery);
  db.on('query-response', onEnd);
  db.on('query-error', onEnd);
  observed.add(db);
  return () => {
    observed.delete(db);
    db.off('query', onQuery);
    db.off('query-response', onEnd);
    db.off('query-error', onEnd);
  };
}

function operationOf(query: QueryEvent): string {
  switch (query.method) {
    case 'select':
    case 'first':
    case 'pluck':
      return 'select';
    case 'insert':
    case 'upsert':
      return 'insert';
    case 'update':
    case 'counter':
      return 'update';
    case 'del':
      return 'delete';
    case 'raw':
      return operationOfSql(query.sql ?? '');
    default:
      return 'other';
  }
}

function operationOfSql(sql: string): string {
  if (/^\s*select\b/i.test(sql)) return 'select';
  if (/^\s*insert\b/i.test(sql)) return 'insert';
  if (/^\s*update\b/i.test(sql)) return 'update';
  if (/^\s*delete\b/i.test(sql)) return 'delete';
  return 'other';
}
