import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createLogger } from '../logging.js';
import { resolveKeyEncryptionSecret } from '../security/key-encryption-secret.js';
import { createSharedDependencies } from '../shared-dependencies.js';
import { runProgram } from './program.js';
import { createCliServices } from './services.js';

/** Entry point of `npm run cli -- <command>`. */
async function main(): Promise<number> {
  let db: Database | undefined;
  const io = {
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
  };
  try {
    return await runProgram(process.argv.slice(2), io, async () => {
      const config = loadConfig();
      // Logs go to stderr so that stdout stays machine-readable with --json.
      const logger = createLogger(
        config.logLevel === 'info' ? 'warn' : config.logLevel,
        process.stderr,
      );
      db = openDatabase(config.database, logger);
      await migrateToLatest(db);
      return createCliServices(
        createSharedDependencies({
          db,
          clock: systemClock,
          logger,
          config,
          keyEncryptionSecret: resolveKeyEncryptionSecret(config, logger),
        }),
      );
    });
  } finally {
    await db?.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
