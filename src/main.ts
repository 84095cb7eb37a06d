import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logging.js';
import { startService } from './server.js';

/** Process entry point: `npm start`. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const service = await startService({ config, logger });
  logger.info(
    {
      url: service.url,
      authUrl: config.authUrl,
      apiUrl: config.apiUrl,
      database: config.database.client,
    },
    `listening on ${service.url}`,
  );
  const consoleUrl = `${config.authUrl}/console`;
  const firstStep = config.consoleSignUp === 'open' ? 'sign up there, or run' : 'run';
  logger.info(
    { consoleUrl },
    `partner console at ${consoleUrl}: to start, ${firstStep} \`npm run cli -- demo\` ` +
      'for a ready-made user, two employers and an app',
  );

  const shutdown = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    service.stop().then(
      () => {
        logger.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error('failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
