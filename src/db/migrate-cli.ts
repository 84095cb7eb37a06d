import { loadConfig } from '../config.js';
import { createLogger } from '../logging.js';
import { ensureReachable, openDatabase } from './database.js';
import { migrateToLatest, rollbackAll } from './migrate.js';

/** `npm run migrate` applies pending migrations; `npm run migrate -- --down` reverts them all. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = openDatabase(config.database, createLogger(config.logLevel));
  try {
    await ensureReachable(db, config.database);
    const down = process.argv.includes('--down');
    const names = down ? await rollbackAll(db) : await migrateToLatest(db);
    const verb = down ? 'Reverted' : 'Applied';
    console.log(
      names.length ? `${verb}: ${names.join(', ')}` : 'Nothing to do: database is up to date.',
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
