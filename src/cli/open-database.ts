import type { DatabaseConfig } from '../config.js';
import {
  databaseExists,
  databaseLocation,
  ensureReachable,
  openDatabase,
  type Database,
} from '../db/database.js';
import { hasBeenMigrated } from '../db/migrate.js';
import { DomainError } from '../errors.js';
import type { Logger } from 'pino';

/** The CLI was pointed at a database that does not exist; it creates none. */
export class NoDatabase extends DomainError {}

/**
 * Opens the database the configuration names, only if it exists and was migrated: a mistyped
 * SQLITE_PATH or DATABASE_SCHEMA must not become a new, empty database that the commands then
 * write to while the server reads another. Creating one is for the server and `npm run migrate`.
 */
export async function openExistingDatabase(
  config: DatabaseConfig,
  logger: Logger,
): Promise<Database> {
  const { text, settings } = databaseLocation(config);
  const advice =
    `the CLI creates no database: check ${settings.join(' and ')} (run the CLI with the ` +
    "server's environment, from its directory), or create it with `npm run migrate` " +
    '(the server also creates it when it first starts)';
  if (!databaseExists(config)) throw new NoDatabase(`there is no ${text}; ${advice}`);
  const db = openDatabase(config, logger);
  try {
    await ensureReachable(db, config);
    if (!(await hasBeenMigrated(db))) {
      throw new NoDatabase(`the ${text} has no tables, it was never migrated; ${advice}`);
    }
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
