import type { Knex } from 'knex';
import type { DatabaseConfig } from '../../config.js';
import type { Dialect } from './dialect.js';
import { postgres } from './postgres.js';
import { sqlite } from './sqlite.js';

export type { DatabaseLocation, Dialect, Row } from './dialect.js';

/** Every engine the service runs on. Another one is a module beside these, listed here. */
export const DIALECTS: readonly Dialect[] = [sqlite, postgres];

/** The dialect a configuration opens. */
export function dialectFor(config: DatabaseConfig): Dialect {
  return find((dialect) => dialect.name === config.client, config.client);
}

/** The dialect of an open database, or of a transaction on one. */
export function dialectOf(db: Knex | Knex.Transaction): Dialect {
  const knexDialect = (db.client as { dialect?: string } | undefined)?.dialect;
  return find((dialect) => dialect.knexDialect === knexDialect, String(knexDialect));
}

function find(matches: (dialect: Dialect) => boolean, name: string): Dialect {
  const found = DIALECTS.find(matches);
  if (!found) throw new Error(`no dialect for the database engine ${name}`);
  return found;
}
