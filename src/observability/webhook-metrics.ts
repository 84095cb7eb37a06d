import { Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * Webhook delivery series (DESIGN §8). Labels stay bounded: `type` is one of the documented
 * event types (anything else is `other`), `outcome` one of three values.
 */

const ATTEMPT_SECONDS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60];

export const webhookDeliveries = new Counter({
  name: 'webhook_deliveries_total',
  help:
    'Webhook delivery attempts by event type and outcome: delivered, retrying (failed, tried ' +
    'again later) or failed (failed for good)',
  labelNames: ['type', 'outcome'] as const,
  registers: [register],
});

export const webhookAttemptDuration = new Histogram({
  name: 'webhook_attempt_duration_seconds',
  help: 'Webhook delivery attempts from request to the answer read (or the failure)',
  buckets: ATTEMPT_SECONDS_BUCKETS,
  registers: [register],
});

/**
 * What the queue gauges show: the deliveries still to make, as a delivering process last read
 * them (src/webhooks/queue-readings.ts). A scrape runs no SQL.
 */
export interface WebhookQueueSource {
  queue(): { depth: number; oldestDueAgeSeconds: number };
}

const sources = new Set<WebhookQueueSource>();

/**
 * From one source: every process reads the same rows, so a cluster's aggregated gauges take the
 * max rather than the sum. A process that delivers nothing shows an empty queue.
 */
function readQueue(): { depth: number; oldestDueAgeSeconds: number } {
  const [source] = sources;
  return source ? source.queue() : { depth: 0, oldestDueAgeSeconds: 0 };
}

new Gauge({
  name: 'webhook_outbox_depth',
  help: 'Webhook deliveries still to make (pending), counted up to a bound',
  registers: [register],
  aggregator: 'max',
  collect() {
    this.set(readQueue().depth);
  },
});

new Gauge({
  name: 'webhook_outbox_oldest_due_age_seconds',
  help: 'How long the longest-waiting due webhook delivery has been due (0 when none is)',
  registers: [register],
  aggregator: 'max',
  collect() {
    this.set(readQueue().oldestDueAgeSeconds);
  },
});

/** Makes the queue gauges read `source` until the returned function is called. */
export function observeWebhookQueue(source: WebhookQueueSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}
