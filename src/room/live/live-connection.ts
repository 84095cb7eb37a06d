import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { MembershipQueue, type MembershipChange } from '../membership-queue.js';
import { encodeServiceMessage, type Peer, type ServiceMessage } from '../protocol/messages.js';
import type { RoomParticipant } from '../room-service.js';

/** How long a connection we close may take to answer the closing handshake before it is cut. */
const CLOSE_GRACE_MS = 5_000;
/** Messages a connection may send per second (ICE candidates come in bursts). */
const MAX_MESSAGES_PER_SECOND = 100;

/** WebSocket close codes (RFC 6455 §7.4.1). */
export const CLOSE_CODES = {
  goingAway: 1001,
  policyViolation: 1008,
  tryAgainLater: 1013,
} as const;

export interface LiveConnectionOptions {
  /** Bytes that may wait to be sent before the connection is taken for a stalled reader. */
  sendBufferMaxBytes: number;
  logger: Logger;
  /** Carries out one change of its room membership (one at a time, in order). */
  changeMembership(connection: LiveConnection, change: MembershipChange): Promise<void>;
  /** The connection is gone (closed, or cut off by the service): it leaves everything. */
  onGone(connection: LiveConnection): void;
}

/**
 * One browser's live connection: whose it is, whether it is in the room, and the bounds on what
 * it may make this process hold (its send buffer, its message rate, its signals on the bus).
 */
export class LiveConnection {
  readonly id = randomUUID();
  /** Set while the connection is in the room; null while it only watches the lobby. */
  peer: Peer | null = null;
  /** Its joins and leaves, one at a time and in order. */
  readonly membership: MembershipQueue;
  /** Closed (or being closed): nothing more is sent to it, and it has left or is leaving. */
  gone = false;
  /** Answered the last ping. */
  alive = true;
  /** Bytes of its signals published but not yet taken by the bus. */
  signalBytesInFlight = 0;
  private window = { startedAt: Date.now(), count: 0 };

  constructor(
    readonly socket: WebSocket,
    readonly eventId: string,
    readonly participant: RoomParticipant,
    private readonly options: LiveConnectionOptions,
  ) {
    this.membership = new MembershipQueue((change) => options.changeMembership(this, change));
  }

  /** Open and not being closed by the service. */
  get open(): boolean {
    return !this.gone && this.socket.readyState === this.socket.OPEN;
  }

  /**
   * Sends unless the browser has stopped reading: a connection with more than
   * LIVE_SEND_BUFFER_MAX_BYTES waiting is closed instead of being sent more (its browser
   * reconnects if it is still there), so a frozen tab cannot make the process buffer for it.
   */
  send(message: ServiceMessage): void {
    if (!this.open) return;
    const text = encodeServiceMessage(message);
    const waiting = this.socket.bufferedAmount + Buffer.byteLength(text);
    if (waiting > this.options.sendBufferMaxBytes) {
      this.options.logger.warn(
        { bufferedBytes: this.socket.bufferedAmount },
        'a live connection stopped reading: closed',
      );
      return this.cutOff(CLOSE_CODES.tryAgainLater, 'Too much waiting to be sent.');
    }
    this.socket.send(text);
  }

  /** Counts one message from the browser; false once it sends more than its rate allows. */
  withinRate(): boolean {
    const now = Date.now();
    if (now - this.window.startedAt >= 1000) this.window = { startedAt: now, count: 0 };
    this.window.count += 1;
    return this.window.count <= MAX_MESSAGES_PER_SECOND;
  }

  /**
   * Closes a connection the service will not keep (it stopped reading, or sends too much), and
   * treats it as gone at once: it leaves the room now, not when the browser answers the close.
   */
  cutOff(code: number, reason: string): void {
    const socket = this.socket;
    socket.close(code, reason);
    // A browser that stopped reading never answers the close: its socket goes after a grace.
    const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    this.options.onGone(this);
  }
}
