import type { Logger } from 'pino';
import { onWorkerBroadcast, publishToWorkers } from '../cluster/broadcast.js';
import { RealtimeBusClosedError, type RealtimeBus, type RealtimeMessage } from './bus.js';
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
  private closed = false;

  constructor(logger: Logger) {
    this.subscribers = new Subscribers(logger);
    this.stopRelay = onWorkerBroadcast(CLUSTER_CHANNEL, (payload) => {
      if (typeof payload === 'string') this.subscribers.deliverText(payload);
    });
  }

  async publish(message: RealtimeMessage): Promise<void> {
    if (this.closed) throw new RealtimeBusClosedError();
    const text = encodeMessage(message);
    // Later, as other transports deliver: a listener never runs inside publish(). Microtasks
    // run in the order they were queued, so this process's messages keep their order.
    queueMicrotask(() => this.subscribers.deliverText(text));
    publishToWorkers(CLUSTER_CHANNEL, text);
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
