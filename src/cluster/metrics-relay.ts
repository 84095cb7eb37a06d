import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { MetricsSource } from '../observability/metrics-source.js';
import { isMetricsRequest, isMetricsResponse, type MetricsRequest } from './messages.js';

/** prom-client gives up on a worker after 5 s; the asking worker waits a little longer. */
const ANSWER_TIMEOUT_MS = 8_000;

/**
 * In the primary: answers workers that ask for the cluster's metrics with prom-client's
 * aggregation of every worker's registry. Returns the same aggregation for the primary's own
 * METRICS_PORT.
 */
export function serveClusterMetrics(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  const source: MetricsSource = {
    contentType: aggregator.contentType,
    read: () => aggregator.clusterMetrics(),
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMetricsRequest(message)) return;
    source.read().then(
      (text) => sendIfConnected(worker, { type: 'hpa:metrics-response', id: message.id, text }),
      (error: unknown) =>
        sendIfConnected(worker, {
          type: 'hpa:metrics-response',
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  return source;
}

/**
 * In a worker: reports this worker's registry when the primary collects (prom-client listens
 * once an AggregatorRegistry exists), and reads the whole cluster's metrics from the primary.
 */
export function clusterMetricsFromPrimary(): MetricsSource {
  new AggregatorRegistry();
  const waiting = new Map<number, (answer: { text?: string; error?: string }) => void>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (!isMetricsResponse(message)) return;
    waiting.get(message.id)?.(message);
  });
  return {
    contentType: AggregatorRegistry.PROMETHEUS_CONTENT_TYPE,
    read: () =>
      new Promise<string>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(
          () => settle({ error: 'the primary did not answer' }),
          ANSWER_TIMEOUT_MS,
        );
        function settle(answer: { text?: string; error?: string }) {
          clearTimeout(timer);
          waiting.delete(id);
          if (answer.text !== undefined) resolve(answer.text);
          else reject(new Error(answer.error ?? 'no metrics'));
        }
        waiting.set(id, settle);
        const request: MetricsRequest = { type: 'hpa:metrics-request', id };
        process.send!(request);
      }),
  };
}

function sendIfConnected(worker: Worker, message: object): void {
  if (worker.isConnected()) worker.send(message);
}
