import type { ReceiverCommand, ReceiverReport } from './webhook-protocol.js';
import { spawnChild, type Child } from './processes.js';

const READY_TIMEOUT_MS = 30_000;

/** The harness's handle on the webhook receiver process (bench/webhook-receiver.ts). */
export class WebhookReceiver {
  private readonly child: Child;
  private readonly answers: Array<(line: string) => void> = [];
  private readonly ready: Promise<number>;

  constructor(repository: string) {
    let markReady: (port: number) => void = () => {};
    this.ready = new Promise((resolve) => (markReady = resolve));
    this.child = spawnChild(process.execPath, ['--import', 'tsx', 'bench/webhook-receiver.ts'], {
      cwd: repository,
      env: { NODE_ENV: 'production', PORT: '0' },
      onLine: (line, stream) => {
        if (stream !== 'stdout') return;
        if (line.startsWith('ready ')) return markReady(Number(line.slice('ready '.length)));
        this.answers.shift()?.(line);
      },
    });
  }

  /** Waits until it listens; its base URL. */
  async start(): Promise<string> {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`the webhook receiver did not start:\n${this.child.output()}`)),
        READY_TIMEOUT_MS,
      ).unref(),
    );
    return `http://127.0.0.1:${await Promise.race([this.ready, timeout])}`;
  }

  async register(endpointPath: string, secret: string): Promise<void> {
    await this.send({ endpoint: endpointPath, secret });
  }

  async report(): Promise<ReceiverReport> {
    return JSON.parse(await this.send({ report: true })) as ReceiverReport;
  }

  stop(): Promise<void> {
    this.child.process.stdin!.end();
    return this.child.stop(2000);
  }

  private send(command: ReceiverCommand): Promise<string> {
    return new Promise((resolve) => {
      this.answers.push(resolve);
      this.child.process.stdin!.write(`${JSON.stringify(command)}\n`);
    });
  }
}
