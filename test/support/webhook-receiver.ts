import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HTTP } from 'cloudevents';
import { Webhook } from 'standardwebhooks';
import { assertWebhookMatches } from './openapi-contract.js';
import { seededRandom } from './seeded-random.js';

/** What a receiver may do instead of answering 204. */
export type ReceiverFault = 'error-500' | 'reset' | 'hang' | 'slow-down-429';

export interface ReceivedDelivery {
  webhookId: string;
  type: string;
  subject: string;
  sequence: string;
  data: Record<string, unknown>;
  body: string;
  /** How many attempts of it were answered 2xx. */
  accepted: number;
}

export interface ReceiverOptions {
  /** The endpoint's live secrets; a delivery must verify under one of them. */
  secrets(): string[];
  /** Share of requests answered with a fault instead of 204 (0 by default). */
  faultRate?: number;
  faults?: readonly ReceiverFault[];
  seed?: number;
}

/**
 * A partner's webhook receiver for tests: it verifies every request with the standardwebhooks
 * library, parses it with the cloudevents SDK, checks it against openapi.yaml, and keeps what it
 * accepted by `webhook-id`. It can fail a share of requests the ways real receivers do.
 */
export class WebhookReceiver {
  /** Deliveries answered 2xx at least once, by webhook-id. */
  readonly accepted = new Map<string, ReceivedDelivery>();
  /** Requests that did not verify, did not parse or broke the contract; a test wants none. */
  readonly refused: string[] = [];
  /** Same webhook-id, different body: a test wants none. */
  readonly changedBodies: string[] = [];
  readonly faultCounts: Record<ReceiverFault, number> = {
    'error-500': 0,
    reset: 0,
    hang: 0,
    'slow-down-429': 0,
  };
  requests = 0;
  private readonly random: () => number;
  private readonly hanging = new Set<ServerResponse>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly options: ReceiverOptions,
  ) {
    this.random = seededRandom(options.seed ?? 20);
  }

  static async start(options: ReceiverOptions): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, options);
    server.on('request', (req, res) => void receiver.handle(req, res));
    server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    );
    const problem = this.check(body, headers);
    if (problem) {
      this.refused.push(problem);
      res.writeHead(400).end();
      return;
    }
    const fault = this.pickFault();
    if (fault) {
      this.faultCounts[fault] += 1;
      if (fault === 'error-500') res.writeHead(500).end('receiver failed');
      else if (fault === 'slow-down-429') res.writeHead(429, { 'retry-after': '1' }).end();
      else if (fault === 'reset') req.socket.destroy();
      else this.hanging.add(res);
      return;
    }
    this.accept(body);
    res.writeHead(204).end();
  }

  private check(body: string, headers: Record<string, string>): string | undefined {
    const verified = this.options.secrets().some((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    if (!verified) return `did not verify: ${headers['webhook-id']}`;
    try {
      const event = HTTP.toEvent({ headers, body });
      if (Array.isArray(event)) return 'a batch';
      assertWebhookMatches({ headers: new Headers(headers), body });
    } catch (error) {
      return `${headers['webhook-id']}: ${(error as Error).message}`;
    }
    return undefined;
  }

  private pickFault(): ReceiverFault | undefined {
    const faults = this.options.faults ?? ['error-500', 'reset', 'hang', 'slow-down-429'];
    if (this.random() >= (this.options.faultRate ?? 0)) return undefined;
    return faults[Math.floor(this.random() * faults.length)];
  }

  private accept(body: string): void {
    const envelope = JSON.parse(body) as {
      id: string;
      type: string;
      subject: string;
      sequence: string;
      data: Record<string, unknown>;
    };
    const seen = this.accepted.get(envelope.id);
    if (seen) {
      if (seen.body !== body) this.changedBodies.push(envelope.id);
      seen.accepted += 1;
      return;
    }
    this.accepted.set(envelope.id, {
      webhookId: envelope.id,
      type: envelope.type,
      subject: envelope.subject,
      sequence: envelope.sequence,
      data: envelope.data,
      body,
      accepted: 1,
    });
  }
}
