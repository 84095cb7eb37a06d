import {
  decodeServiceMessage,
  encodePageMessage,
  type PageMessage,
  type ServiceMessage,
} from '../../src/room/protocol/messages.js';
import type { RoomEnvironment } from './environment.js';

const FIRST_RETRY_MS = 2000;
const LONGEST_RETRY_MS = 30000;

export interface LiveLinkEvents {
  message(message: ServiceMessage): void;
  /**
   * The connection was lost (not closed by the page): whether to connect again, and whether
   * to join the room once connected.
   */
  lost(): { reconnect: boolean; rejoin: boolean };
  /** The page should join the room (after a reconnection that asked for it). */
  rejoin(): void;
}

/**
 * The page's live connection to the service (`<lobby>/live`), over the room protocol, connected
 * again when it is lost. On every (re)connection the service sends the room's state, so the
 * page never misses what happened while it was away.
 */
export class LiveLink {
  private socket: WebSocket | null = null;
  private retryMs = FIRST_RETRY_MS;

  constructor(
    private readonly env: RoomEnvironment,
    private readonly path: string,
    private readonly events: LiveLinkEvents,
  ) {}

  get isOpen(): boolean {
    return this.socket?.readyState === this.env.WebSocket.OPEN;
  }

  /** Connects; `onOpen` runs once this connection opens. */
  connect(onOpen?: () => void): void {
    const { location } = this.env;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new this.env.WebSocket(`${scheme}//${location.host}${this.path}`);
    this.socket = socket;
    let openedAt = 0;
    socket.addEventListener('open', () => {
      openedAt = Date.now();
      onOpen?.();
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      const message = decodeServiceMessage(String(event.data));
      if (message) this.events.message(message);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      const { reconnect, rejoin } = this.events.lost();
      if (!reconnect) return;
      // A connection that held a while was lost by chance: soon back. One the service refused
      // (too many pages open) or cut off at once (it stopped reading) waits longer each time.
      const held = openedAt > 0 && Date.now() - openedAt > LONGEST_RETRY_MS;
      this.retryMs = held ? FIRST_RETRY_MS : Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
      this.env.setTimeout(
        () => this.connect(rejoin ? () => this.events.rejoin() : undefined),
        this.retryMs,
      );
    });
  }

  send(message: PageMessage): void {
    if (this.isOpen) this.socket!.send(encodePageMessage(message));
  }
}
