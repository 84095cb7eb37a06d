import cluster from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { metricsEnabled } from '../observability/compose.js';
import { startMetricsServer, type MetricsServer } from '../observability/metrics-server.js';
import { prepareDatabase } from '../server.js';
import { broadcastRelay } from './broadcast.js';
import { serveClusterMetrics } from './metrics-relay.js';
import { WorkerPool } from './worker-pool.js';

/** Time for the workers' own graceful shutdown, and a little more, before they are killed. */
const STOP_MARGIN_MS = 5_000;

/**
 * The cluster primary (WORKERS > 1): prepares the database once, forks the workers that share
 * the port, relays their broadcasts, gathers their metrics, replaces a worker that dies, and on
 * SIGTERM or SIGINT stops them all gracefully before it exits. It serves no requests itself.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  await prepareDatabase({ config, logger });
  cluster.on('message', broadcastRelay(config.realtimeBacklogMaxBytes, logger));
  let metricsServer: MetricsServer | undefined;
  if (metricsEnabled(config.metrics)) {
    const source = serveClusterMetrics();
    if (config.metrics.port !== undefined) {
      metricsServer = await startMetricsServer(config.metrics.host, config.metrics.port, source);
      logger.info({ metricsUrl: metricsServer.url }, `metrics at ${metricsServer.url}`);
    }
  }

  const pool = new WorkerPool(config.workers, logger, config.workerMaxOldSpaceMb);
  let stopping: Promise<void> | undefined;
  const stop = (signal: NodeJS.Signals | 'startup failure') => {
    stopping ??= (async () => {
      logger.info({ signal }, 'shutting down: stopping the workers');
      const clean = await pool.stop(config.shutdownTimeoutMs * 2 + STOP_MARGIN_MS);
      await metricsServer?.close();
      logger.info({ clean }, 'shutdown complete');
      process.exit(clean && signal !== 'startup failure' ? 0 : 1);
    })();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  try {
    await pool.start();
  } catch (error) {
    logger.error({ err: error }, 'a worker failed to start');
    stop('startup failure');
    return;
  }
  logger.info(
    { workers: config.workers, port: config.port, authUrl: config.authUrl },
    `${config.workers} workers listening on port ${config.port}`,
  );
  // A supervisor that started us with an IPC channel (a test harness, a process manager) learns
  // that every worker listens: before this, a worker's death could leave the port unserved.
  process.send?.({ type: 'ready', workers: config.workers });
}
