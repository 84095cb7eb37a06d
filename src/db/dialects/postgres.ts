import { createHash } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../../config.js';
import { driverError, type Dialect } from './dialect.js';
import { postgresTallyTriggers } from './postgres-row-tally.js';
import { postgresEpochTriggers } from './epoch-triggers.js';
import { PostgresNotificationChannel } from './postgres-notifications.js';
import { postgresJson } from './json-sql.js';
import { postgresTextIndex } from './postgres-text-search.js';
import { selectPrepared } from './postgres-prepared.js';

type PostgresConfig = Extract<DatabaseConfig, { client: 'postgres' }>;

// BIGINT (int8) columns hold epoch milliseconds; they fit a JS number exactly, so read them as
// numbers rather than pg's default strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** SQLSTATE codes (PostgreSQL appendix A). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/** Class 40, transaction rollback: the server undid the transaction to let another one through. */
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';

/**
 * PostgreSQL (`DATABASE_URL`), how the service scales out: transactions of many processes run
 * side by side at READ COMMITTED, so what must happen one after another takes row locks
 * (`FOR UPDATE`, `FOR SHARE`) or a table lock. Commits are durable by default
 * (`synchronous_commit = on`).
 */
export const postgres: Dialect = {
  name: 'postgres',
  knexDialect: 'postgresql',

  knexConfig(config) {
    const { connectionString, searchPath, poolMax } = postgresConfig(config);
    return {
      client: 'pg',
      connection: connectionString,
      searchPath: searchPath ? [searchPath] : undefined,
      pool: { min: 0, max: poolMax },
    };
  },

  dataDirectory: () => undefined,

  // A missing database or schema is refused by the server, not created.
  exists: () => true,

  location(config) {
    const { host, port, database, schema } = serverLocation(postgresConfig(config));
    return {
      fields: { engine: 'postgres', host, port, database, schema },
      text: `PostgreSQL database ${database} at ${host}:${port}, schema ${schema}`,
      settings: ['DATABASE_URL', 'DATABASE_SCHEMA'],
    };
  },

  deploymentIdentity(config) {
    const { host, port, database, schema } = serverLocation(postgresConfig(config));
    return `postgres://${host}:${port}/${database}#${schema}`;
  },

  openNotificationChannel(config, options) {
    const { connectionString, searchPath } = postgresConfig(config);
    return new PostgresNotificationChannel(connectionString, searchPath, options);
  },

  readSnapshot: { isolationLevel: 'repeatable read', readOnly: true },

  forUpdate: (query) => query.forUpdate() as typeof query,
  forShare: (query) => query.forShare() as typeof query,
  skipLocked: (query, table) => query.forUpdate(table).skipLocked() as typeof query,

  async serializeOn(tx, table) {
    // Conflicts with itself and with every write of the table, not with plain reads.
    await tx.raw('lock table ?? in share row exclusive mode', [table]);
  },

  async serializeOnKeys(tx, table, keys) {
    // Transaction-scoped advisory locks, (table, key) hashed to two int4s. One statement takes
    // them in ascending order (unnest yields the array in order), so two callers wait for each
    // other in one order; a shared hash only makes two keys take turns needlessly.
    const locks = [...new Set(keys.map(int4Hash))].sort((a, b) => a - b);
    if (!locks.length) return;
    await tx.raw('SELECT pg_advisory_xact_lock(?::int4, k) FROM unnest(?::int4[]) AS k', [
      int4Hash(table),
      `{${locks.join(',')}}`,
    ]);
  },

  isUniqueViolation: (error) => driverError(error).code === UNIQUE_VIOLATION,
  isForeignKeyViolation: (error) => driverError(error).code === FOREIGN_KEY_VIOLATION,
  isTransientFailure: (error) => {
    const { code } = driverError(error);
    return code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED;
  },

  tallyTriggers: postgresTallyTriggers,

  epochTriggers: postgresEpochTriggers,

  json: postgresJson,
  textIndex: postgresTextIndex,

  select: selectPrepared,
};

/** Server, database and schema a configuration names, without its credentials. */
function serverLocation({ connectionString, searchPath }: PostgresConfig) {
  const url = new URL(connectionString);
  // libpq's defaults, and its host and port given as query parameters (a Unix socket).
  const host = url.searchParams.get('host') ?? (url.hostname || 'localhost');
  const port = url.searchParams.get('port') ?? (url.port || '5432');
  const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
  return { host, port, database, schema: searchPath ?? 'public' };
}

/** A stable 32-bit signed hash of `text`, an advisory lock's key. */
function int4Hash(text: string): number {
  return createHash('sha256').update(text).digest().readInt32BE(0);
}

function postgresConfig(config: DatabaseConfig): PostgresConfig {
  if (config.client !== 'postgres') {
    throw new Error(`not a PostgreSQL configuration: ${config.client}`);
  }
  return config;
}
