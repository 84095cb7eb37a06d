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

/** What the queue gauges are read from: the deliveries still to make, in the database. */
export interface WebhookQueueSource {
  queue(): Promise<{ depth: number; oldestDueAgeSeconds: number }>;
}

const sources = new Set<WebhookQueueSource>();

/** Both gauges of one scrape share one reading. */
const READING_REUSED_MS = 1000;
let lastReading: { at: number; value: ReturnType<WebhookQueueSource['queue']> } | undefined;

/**
 * Read at scrape time from one source. Every process reads the same rows, so a cluster's
 * aggregated gauges take the max rather than the sum.
 */
function readQueue(): ReturnType<WebhookQueueSource['queue']> {
  const [source] = sources;
  if (!source) return Promise.resolve({ depth: 0, oldestDueAgeSeconds: 0 });
  const now = performance.now();
  if (!lastReading || now - lastReading.at > READING_REUSED_MS) {
    lastReading = { at: now, value: source.queue() };
  }
  return lastReading.value;
}

new Gauge({
  name: 'webhook_outbox_depth',
  help: 'Webhook deliveries still to make (pending), counted up to a bound',
  registers: [register],
  aggregator: 'max',
  async collect() {
    try {
      this.set((await readQueue()).depth);
    } catch {
      // The last value stays: a scrape during a database outage still answers.
    }
  },
});

new Gauge({
  name: 'webhook_outbox_oldest_due_age_seconds',
  help: 'How long the longest-waiting due webhook delivery has been due (0 when none is)',
  registers: [register],
  aggregator: 'max',
  async collect() {
    try {
      this.set((await readQueue()).oldestDueAgeSeconds);
    } catch {
      // As above.
    }
  },
});

/** Makes the queue gauges read `source` until the returned function is called. */
export function observeWebhookQueue(source: WebhookQueueSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}
