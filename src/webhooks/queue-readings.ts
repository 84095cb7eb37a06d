import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { EpochMs } from '../db/rows.js';
import type { WebhookQueueSource } from '../observability/webhook-metrics.js';

/** Pending deliveries are counted up to this many: a count must stay cheap on a large backlog. */
const MOST_COUNTED = 1_000_000;

interface QueueStore {
  queue(countLimit: number): Promise<{ depth: number; earliestDue: EpochMs | null }>;
}

/**
 * The delivery queue as this process last read it, for the /metrics gauges: read every
 * WEBHOOK_QUEUE_READ_MS by the process that delivers, never at a scrape, so that scrapes cost
 * the database nothing and a slow database never slows a scrape. The age of the oldest due
 * delivery is computed from its due time when asked, so it grows between readings.
 */
export class QueueReadings implements WebhookQueueSource {
  private depth = 0;
  private earliestDue: EpochMs | null = null;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly store: QueueStore,
    private readonly clock: Clock,
    private readonly everyMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    void this.read();
    this.timer = setInterval(() => void this.read(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.reading;
  }

  queue(): { depth: number; oldestDueAgeSeconds: number } {
    const due = this.earliestDue;
    const ageMs = due === null ? 0 : Math.max(0, this.clock.now() - due);
    return { depth: this.depth, oldestDueAgeSeconds: ageMs / 1000 };
  }

  /** Reads the queue now, unless a reading is under way. */
  private read(): Promise<void> {
    this.reading ??= this.store
      .queue(MOST_COUNTED)
      .then(
        ({ depth, earliestDue }) => {
          this.depth = depth;
          this.earliestDue = earliestDue;
        },
        // The last reading stays: the gauges still answer during a database outage.
        (error: unknown) => this.logger.warn({ err: error }, 'reading the webhook queue failed'),
      )
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}
