import WebSocket from 'ws';

export interface LiveMessage {
  type: string;
  [field: string]: any;
}

/** What the service answered instead of upgrading: status and body, as a browser would see. */
export interface RefusedUpgrade {
  status: number;
  body: string;
}

/**
 * A live connection of the interview pages as a test drives it: every message kept in order,
 * and waited for by type.
 */
/** How a live connection ended, as the client saw it (1006: no close frame arrived). */
export interface LiveClosure {
  code: number;
  reason: string;
}

/** Where a test's connection comes from: another loopback address is another client address. */
export interface LiveOptions {
  localAddress?: string;
}

export class LiveClient {
  readonly messages: LiveMessage[] = [];
  /** Resolves once the connection has closed, whoever closed it. */
  readonly closed: Promise<LiveClosure>;
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as LiveMessage);
      for (const wake of this.waiters) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    // A connection the service cuts is an outcome a test looks at, not an unhandled error.
    socket.on('error', () => {});
  }

  /** Opens `url` (http:// or ws://), or tells why the service refused to. */
  static open(
    url: string,
    headers: Record<string, string> = {},
    options: LiveOptions = {},
  ): Promise<LiveClient | RefusedUpgrade> {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers, ...options });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new LiveClient(socket)));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.once('error', reject);
    });
  }

  static async connect(
    url: string,
    headers: Record<string, string> = {},
    options: LiveOptions = {},
  ): Promise<LiveClient> {
    const opened = await LiveClient.open(url, headers, options);
    if (!(opened instanceof LiveClient)) {
      throw new Error(`the live connection was refused with ${opened.status}: ${opened.body}`);
    }
    return opened;
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Bytes this client has queued but not yet handed to the operating system. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /**
   * Stops reading from the network, as a browser tab that froze would: what the service sends
   * piles up in the kernel's buffers and then in the service's. `resumeReading` undoes it.
   */
  stopReading(): void {
    this.rawSocket().pause();
  }

  resumeReading(): void {
    this.rawSocket().resume();
  }

  /** The first message of `type` not yet taken (optionally also matching `where`). */
  next(
    type: string,
    where: (message: LiveMessage) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<LiveMessage> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const index = this.messages.findIndex((m) => m.type === type && where(m));
        if (index < 0) return;
        const [found] = this.messages.splice(index, 1);
        this.waiters.delete(look);
        clearTimeout(timer);
        resolve(found!);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(look);
        reject(new Error(`no "${type}" message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(look);
      look();
    });
  }

  /** True when no message of `type` arrives within `ms`. */
  async staysWithout(type: string, ms: number): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return !this.messages.some((m) => m.type === type);
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  /** Cuts the connection without a closing handshake. */
  terminate(): void {
    this.socket.terminate();
  }

  private rawSocket(): { pause(): void; resume(): void } {
    // ws keeps the TCP socket in a private field; a test has no other way to stop reading.
    const raw = (this.socket as unknown as { _socket?: { pause(): void; resume(): void } })._socket;
    if (!raw) throw new Error('the live connection has no socket');
    return raw;
  }
}
