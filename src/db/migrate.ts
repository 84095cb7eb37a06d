import type { Database } from './database.js';
import { migrationSource } from './migrations/index.js';

const config = { migrationSource, tableName: 'knex_migrations' };

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
  return applied;
}

/** Reverts every applied migration, newest first; returns the names reverted. */
export async function rollbackAll(db: Database): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback(config, true)) as [number, string[]];
  return reverted;
}

export async function pendingMigrations(db: Database): Promise<string[]> {
  const [, pending] = (await db.migrate.list(config)) as [unknown[], Array<{ file: string }>];
  return pending.map((migration) => migration.file);
}

/** Whether migrations were ever applied here: false for a new, empty database or schema. */
export function hasBeenMigrated(db: Database): Promise<boolean> {
  return db.schema.hasTable(config.tableName);
}
