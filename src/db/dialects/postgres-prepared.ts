import type { Knex } from 'knex';
import { driverError, type Row } from './dialect.js';

/**
 * Plain reads of SQL built once per shape (`Dialect.select`) as named prepared statements:
 * PostgreSQL parses and plans an unnamed statement again on every call, which for the JSON
 * aggregations of the event reads costs the server about three times the execution itself. A
 * named one is parsed once per connection (node-postgres remembers which connection has which),
 * and after a few runs the server keeps its plan.
 *
 * Names are given to a bounded number of texts per process; others run unnamed. Inside a
 * transaction statements run unnamed, since a failed one there cannot be run again.
 */
const MOST_NAMED_TEXTS = 64;

/**
 * A prepared statement whose tables changed shape under it (`select e.*` after a migration added
 * a column: "cached plan must not change result type"), that the server no longer has, or has
 * already under its name from another client (a pooler between us that shares or drops server
 * connections), fails without having read anything.
 */
const FEATURE_NOT_SUPPORTED = '0A000';
const INVALID_SQL_STATEMENT_NAME = '26000';
const DUPLICATE_PREPARED_STATEMENT = '42P05';
/** After this many such failures the process stops naming statements. */
const MOST_RENAMINGS = 3;

const names = new Map<string, string>();
let generation = 0;

export async function selectPrepared(
  db: Knex | Knex.Transaction,
  sql: string,
  bindings: readonly unknown[],
): Promise<Row[]> {
  const name = nameOf(db, sql);
  const run = (options?: { name: string }) => {
    const raw = db.raw(sql, bindings as Knex.RawBinding[]);
    return (options ? raw.options(options) : raw) as Promise<{ rows: Row[] }>;
  };
  if (name === undefined) return (await run()).rows;
  try {
    return (await run({ name })).rows;
  } catch (error) {
    if (!isStalePreparedStatement(error)) throw error;
    // New names from here on, so that every connection prepares the text again; this call runs
    // it unnamed once more (a read: nothing was done by the failed one).
    names.clear();
    generation += 1;
    return (await run()).rows;
  }
}

function nameOf(db: Knex | Knex.Transaction, sql: string): string | undefined {
  if ((db as { isTransaction?: boolean }).isTransaction === true) return undefined;
  if (generation >= MOST_RENAMINGS) return undefined;
  let name = names.get(sql);
  if (name === undefined && names.size < MOST_NAMED_TEXTS) {
    name = `hpa_select_${generation}_${names.size}`;
    names.set(sql, name);
  }
  return name;
}

function isStalePreparedStatement(error: unknown): boolean {
  const { code } = driverError(error);
  return (
    code === FEATURE_NOT_SUPPORTED ||
    code === INVALID_SQL_STATEMENT_NAME ||
    code === DUPLICATE_PREPARED_STATEMENT
  );
}
