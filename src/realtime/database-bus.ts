import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ByteBudget } from '../byte-budget.js';
import type { NotificationChannel } from '../db/notifications.js';
import {
  RealtimeBusBusyError,
  RealtimeBusClosedError,
  type RealtimeBus,
  type RealtimeMessage,
} from './bus.js';
import { MessageAssembler, splitIntoParts } from './message-parts.js';
import { Subscribers } from './subscribers.js';
import { encodeMessage } from './wire.js';

/**
 * The bus over the database's own notifications (PostgreSQL LISTEN/NOTIFY, src/db/notifications.ts).
 * Every process, this one included, receives through the database, so delivery is the same
 * everywhere. A message longer than one notification travels in parts (./message-parts.ts).
 */
export class DatabaseBus implements RealtimeBus {
  private readonly subscribers: Subscribers;
  private readonly assembler = new MessageAssembler();
  private readonly channel: NotificationChannel;
  private readonly backlog: ByteBudget;
  /** Makes message ids unique across processes. */
  private readonly sender = randomBytes(6).toString('base64url');
  private sequence = 0;
  private closed = false;

  constructor(
    openChannel: (onPayload: (payload: string) => void) => NotificationChannel,
    logger: Logger,
    backlogMaxBytes: number,
  ) {
    this.subscribers = new Subscribers(logger);
    this.backlog = new ByteBudget(backlogMaxBytes, logger, 'realtime messages (PostgreSQL)');
    this.channel = openChannel((payload) => {
      const text = this.assembler.add(payload);
      if (text !== undefined) this.subscribers.deliverText(text);
    });
  }

  async publish(message: RealtimeMessage): Promise<void> {
    if (this.closed) throw new RealtimeBusClosedError();
    const text = encodeMessage(message);
    const bytes = Buffer.byteLength(text);
    if (!this.backlog.take(bytes)) throw new RealtimeBusBusyError();
    try {
      const id = `${this.sender}.${(this.sequence++).toString(36)}`;
      const parts = splitIntoParts(text, id, this.channel.maxPayloadBytes);
      // Queued now, all of them: the channel sends in call order, so parts and messages keep it.
      // The bytes are given back once every part has settled, not at the first failure.
      const sent = await Promise.allSettled(parts.map((part) => this.channel.notify(part)));
      const failed = sent.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      this.backlog.give(bytes);
    }
  }

  subscribe(listener: (message: RealtimeMessage) => void): () => void {
    return this.subscribers.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    await this.channel.close();
  }
}
