import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { databaseLocation, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { cliDeployment } from '../deployment/cli-deployment.js';
import { composeDeployment } from '../deployment/compose.js';
import { createLogger } from '../logging.js';
import { resolveKeyEncryptionSecret } from '../security/key-encryption-secret.js';
import { createSharedDependencies } from '../shared-dependencies.js';
import { openExistingDatabase } from './open-database.js';
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
      db = await openExistingDatabase(config.database, logger);
      await migrateToLatest(db);
      // Tokens are minted for the issuer and audience the server checks, and only where the
      // deployment allows sandbox tokens: both as the server recorded them, not as this shell says.
      const recorded = await composeDeployment({ db, clock: systemClock }).settings.recorded();
      const deployment = cliDeployment(config, recorded);
      const services = createCliServices(
        createSharedDependencies({
          db,
          clock: systemClock,
          logger,
          config: { ...config, authUrl: deployment.issuer, apiUrl: deployment.audience },
          keyEncryptionSecret: resolveKeyEncryptionSecret(config, logger),
        }),
        {
          deployment: recorded,
          context: {
            database: databaseLocation(config.database),
            deployment,
            shellSetsIssuer: Boolean(process.env.AUTH_URL || process.env.PORT),
          },
        },
      );
      // A secret other than the server's would seal what the server cannot open: refuse first.
      await services.signingKeys.confirmSecret();
      return services;
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
