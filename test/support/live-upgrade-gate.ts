import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the service that can hold the live connections of the interview pages
 * (`…/live` WebSocket upgrades) at the door, as a slow network or a busy proxy would: while it
 * is closed, an upgrade request waits unforwarded; `open()` lets the waiting ones through.
 * Everything else passes at once. `cut()` drops the live connections already through, without
 * a closing handshake, as a lost network does.
 *
 * Only the first request of a TCP connection is looked at: browsers open a connection of its
 * own for every WebSocket. A test waits for `held` before it relies on a connection being held.
 */
export class LiveUpgradeGate {
  private readonly server = createServer((client) => this.accept(client));
  private upstream: { host: string; port: number } | null = null;
  private closed = false;
  private readonly waiting: Array<() => void> = [];
  private readonly through = new Set<Socket>();
  private readonly sockets = new Set<Socket>();
  private heldSoFar = 0;
  private readonly watchers = new Set<() => void>();
  /** The gate's own address: the pages' links point here. */
  url = '';

  private constructor() {}

  /** Listens on a free loopback port; `target()` names the service behind it later. */
  static async listen(): Promise<LiveUpgradeGate> {
    const gate = new LiveUpgradeGate();
    gate.server.listen(0, '127.0.0.1');
    await once(gate.server, 'listening');
    const { port } = gate.server.address() as AddressInfo;
    gate.url = `http://127.0.0.1:${port}`;
    return gate;
  }

  /** The service the gate forwards to. */
  target(serviceUrl: string): void {
    const url = new URL(serviceUrl);
    this.upstream = { host: url.hostname, port: Number(url.port) };
  }

  /** From now on, live connections wait at the gate. */
  close(): void {
    this.closed = true;
  }

  /** Lets the waiting live connections through, and every later one. */
  open(): void {
    this.closed = false;
    for (const forward of this.waiting.splice(0)) forward();
  }

  /** Live connections held so far (waiting or already let through). */
  get held(): number {
    return this.heldSoFar;
  }

  /** Resolves once `count` live connections have been held in all. */
  async holding(count: number, timeoutMs = 30_000): Promise<void> {
    await this.until(() => this.heldSoFar >= count, timeoutMs, `${count} held live connections`);
  }

  /** Drops every live connection through the gate, as a lost network does. */
  cut(): void {
    for (const socket of this.through) socket.destroy();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.once('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const read = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (!head.includes('\r\n\r\n')) return;
      client.off('data', read);
      client.pause();
      const request = head.toString('latin1');
      const live =
        /^GET \S*\/live(\?\S*)? HTTP\/1\.1\r\n/.test(request) &&
        /^upgrade:\s*websocket/im.test(request);
      const forward = () => this.forward(client, head, live);
      if (live && this.closed) {
        this.heldSoFar += 1;
        this.waiting.push(forward);
        this.wake();
      } else {
        forward();
      }
    };
    client.on('data', read);
  }

  private forward(client: Socket, head: Buffer, live: boolean): void {
    if (client.destroyed || !this.upstream) return void client.destroy();
    const service = createConnection(this.upstream);
    this.sockets.add(service);
    service.once('close', () => {
      this.sockets.delete(service);
      client.destroy();
    });
    client.once('close', () => service.destroy());
    service.on('error', () => service.destroy());
    service.write(head);
    client.pipe(service);
    service.pipe(client);
    client.resume();
    if (live) {
      this.through.add(client);
      client.once('close', () => this.through.delete(client));
    }
  }

  private wake(): void {
    for (const watcher of this.watchers) watcher();
  }

  private until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`the gate saw no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.watchers.add(check);
      check();
    });
  }
}
