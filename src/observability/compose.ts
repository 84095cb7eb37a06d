import cluster from 'node:cluster';
import type { Router } from 'express';
import { clusterMetricsFromPrimary } from '../cluster/metrics-relay.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { PlainHandler } from '../http/endpoint.js';
import { observeDatabase } from './database-metrics.js';
import { observeRequests } from './http-metrics.js';
import { metricsRouter } from './metrics-endpoint.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { collectProcessMetrics, processMetrics } from './metrics-source.js';

/** What a service process does for /metrics when they are on. */
export interface ServiceMetrics {
  /** Times every request; mounted before anything else. */
  observeRequests: PlainHandler;
  /** `/metrics` on the service port, when METRICS_TOKEN is set. */
  routers: Router[];
  /** Serves METRICS_PORT, unless this is a cluster worker (the primary serves it); its URL. */
  listen(): Promise<string | undefined>;
  /** Stops observing the database and closes METRICS_PORT; before the pool is destroyed. */
  stop(): Promise<void>;
}

/** Metrics are on when there is somewhere to serve them: METRICS_TOKEN or METRICS_PORT. */
export function metricsEnabled(metrics: Config['metrics']): boolean {
  return metrics.token !== undefined || metrics.port !== undefined;
}

/**
 * Metrics of a service process, or undefined when they are off (then nothing is observed). A
 * cluster worker's /metrics answers with every worker's series, aggregated by the primary.
 */
export function composeMetrics(config: Config, db: Database): ServiceMetrics | undefined {
  const { metrics } = config;
  if (!metricsEnabled(metrics)) return undefined;
  collectProcessMetrics();
  const source = cluster.isWorker ? clusterMetricsFromPrimary() : processMetrics;
  const stopObserving = observeDatabase(db);
  let server: MetricsServer | undefined;
  return {
    observeRequests,
    routers: metrics.token === undefined ? [] : [metricsRouter(metrics.token, source)],
    async listen() {
      if (metrics.port === undefined || cluster.isWorker) return undefined;
      server = await startMetricsServer(metrics.host, metrics.port, source);
      return server.url;
    },
    async stop() {
      stopObserving();
      await server?.close();
    },
  };
}
