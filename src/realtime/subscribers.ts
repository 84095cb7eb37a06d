import type { Logger } from 'pino';
import type { RealtimeListener, RealtimeMessage } from './bus.js';
import { decodeMessage } from './wire.js';

/** A bus's listeners, each called for every message it receives; one that throws is logged. */
export class Subscribers {
  // Wrapped, so that one function subscribed twice is called twice and unsubscribed once each.
  private readonly listeners = new Set<{ listener: RealtimeListener }>();

  constructor(private readonly logger: Logger) {}

  add(listener: RealtimeListener): () => void {
    const entry = { listener };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Decodes what a transport delivered and hands it to every listener; drops what is no message. */
  deliverText(text: string): void {
    const message = decodeMessage(text);
    if (!message) {
      this.logger.warn({ length: text.length }, 'dropped a realtime message that does not decode');
      return;
    }
    this.deliver(message);
  }

  deliver(message: RealtimeMessage): void {
    for (const { listener } of [...this.listeners]) {
      try {
        listener(message);
      } catch (error) {
        this.logger.error({ err: error, topic: message.topic }, 'a realtime listener failed');
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
