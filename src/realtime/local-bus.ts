import type { Logger } from 'pino';
import { ByteBudget } from '../byte-budget.js';
import { onWorkerBroadcast, publishToWorkers } from '../cluster/broadcast.js';
import {
  RealtimeBusBusyError,
  RealtimeBusClosedError,
  type RealtimeBus,
  type RealtimeMessage,
} from './bus.js';
import { Subscribers } from './subscribers.js';
import { encodeMessage } from './wire.js';

const CLUSTER_CHANNEL = 'hpa.realtime';

/**
 * The embedded deployment's bus (one SQLite file): this process's subscribers, plus the other
 * node:cluster workers through the primary's relay (src/cluster/broadcast.ts). Processes that
 * share the file outside one cluster do not hear each other; use REDIS_URL for that.
 */
export class LocalBus implements RealtimeBus {
  private readonly subscribers: Subscribers;
  private readonly stopRelay: () => void;
  private readonly backlog: ByteBudget;
  private closed = false;

  constructor(logger: Logger, backlogMaxBytes: number) {
    this.subscribers = new Subscribers(logger);
    this.backlog = new ByteBudget(backlogMaxBytes, logger, 'realtime messages (cluster)');
    this.stopRelay = onWorkerBroadcast(CLUSTER_CHANNEL, (payload) => {
      if (typeof payload === 'string') this.subscribers.deliverText(payload);
    });
  }

  async publish(message: RealtimeMessage): Promise<void> {
    if (this.closed) throw new RealtimeBusClosedError();
    const text = encodeMessage(message);
    const bytes = Buffer.byteLength(text);
    if (!this.backlog.take(bytes)) throw new RealtimeBusBusyError();
    // Later, as other transports deliver: a listener never runs inside publish(). Microtasks
    // run in the order they were queued, so this process's messages keep their order.
    queueMicrotask(() => this.subscribers.deliverText(text));
    try {
      await publishToWorkers(CLUSTER_CHANNEL, text);
    } finally {
      this.backlog.give(bytes);
    }
  }

  subscribe(listener: (message: RealtimeMessage) => void): () => void {
    return this.subscribers.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopRelay();
    this.subscribers.clear();
  }
}
