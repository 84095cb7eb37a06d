import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { WORKER_SLOT_VARIABLE } from './cluster/worker-pool.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logging.js';
import type { Tracing } from './observability/tracing.js';

/**
 * Process entry point: `npm start`. With WORKERS > 1, or in production, this process is the
 * cluster primary and each worker runs this file again. Tracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set, starts
 * before the server's modules (express, knex, pg, graphql) are imported, so that they are
 * instrumented; hence the dynamic imports.
 */
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
  // In production even one worker runs under a primary: it is restarted if it dies, and its
  // heap is bounded (WORKER_MAX_OLD_SPACE_MB), which only a process's start can set.
  if (cluster.isPrimary && (config.workers > 1 || config.env === 'production')) {
    const { runPrimary } = await import('./cluster/primary.js');
    await runPrimary(config, logger);
    return;
  }
  const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? await (await import('./observability/tracing.js')).startTracing(logger)
    : undefined;
  await serve(config, logger, tracing);
}

/** One process serving the port: the whole service, or one cluster worker of it. */
async function serve(config: Config, rootLogger: Logger, tracing?: Tracing): Promise<void> {
  const { startService } = await import('./server.js');
  const slot = cluster.isWorker ? Number(process.env[WORKER_SLOT_VARIABLE] ?? 0) : undefined;
  const logger = slot === undefined ? rootLogger : rootLogger.child({ worker: slot });
  const service = await startService({
    // The primary prepared the database; one worker sweeps for all.
    config: slot === undefined || slot === 0 ? config : { ...config, sweepIntervalMs: 0 },
    logger,
    prepared: slot !== undefined,
    // Traces show the Express route and its middleware: nothing is served below Express then.
    fastRoutes: !tracing,
  });
  if (slot === undefined || slot === 0) announce(config, logger, service);

  const shutdown = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    service.stop().then(
      async () => {
        await tracing?.shutdown();
        logger.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // A worker hears Ctrl-C from the terminal and then SIGTERM from its primary: both stop it.
  const listen = slot === undefined ? process.once.bind(process) : process.on.bind(process);
  listen('SIGTERM', shutdown);
  listen('SIGINT', shutdown);
}

function announce(
  config: Config,
  logger: Logger,
  service: { url: string; metricsUrl?: string },
): void {
  logger.info(
    {
      url: service.url,
      authUrl: config.authUrl,
      apiUrl: config.apiUrl,
      database: config.database.client,
      ...(service.metricsUrl && { metricsUrl: service.metricsUrl }),
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
}

main().catch((error: unknown) => {
  console.error('failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
