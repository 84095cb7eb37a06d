import type { LoadFailure, LoadJob, LoadResult } from './load-protocol.js';
import { spawnChild, type Child } from './processes.js';

const READY_TIMEOUT_MS = 30_000;

/** The harness's handle on the load driver process (bench/load-driver.ts). */
export class LoadDriver {
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: LoadResult | LoadFailure) => void>();
  private readonly child: Child;
  private readonly ready: Promise<void>;

  constructor(repository: string) {
    let markReady: () => void = () => {};
    this.ready = new Promise((resolve) => (markReady = resolve));
    this.child = spawnChild(process.execPath, ['--import', 'tsx', 'bench/load-driver.ts'], {
      cwd: repository,
      env: { NODE_ENV: 'production' },
      onLine: (line, stream) => {
        if (stream !== 'stdout') return;
        if (line === 'ready') return markReady();
        if (!line.startsWith('{')) return;
        const answer = JSON.parse(line) as LoadResult | LoadFailure;
        this.waiting.get(answer.id)?.(answer);
        this.waiting.delete(answer.id);
      },
    });
    void this.child.exited.then(() => {
      for (const [id, settle] of this.waiting) {
        settle({ id, error: `the load driver exited:\n${this.child.output()}` });
      }
      this.waiting.clear();
    });
  }

  async start(): Promise<void> {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error('the load driver did not start')),
        READY_TIMEOUT_MS,
      ).unref(),
    );
    await Promise.race([this.ready, timeout]);
  }

  /** Runs one measurement; the driver runs them one after another. */
  async run(job: Omit<LoadJob, 'id'>): Promise<LoadResult> {
    const id = this.nextId++;
    const answer = await new Promise<LoadResult | LoadFailure>((resolve) => {
      this.waiting.set(id, resolve);
      this.child.process.stdin!.write(`${JSON.stringify({ ...job, id })}\n`);
    });
    if ('error' in answer) throw new Error(`load driver: ${answer.error}`);
    return answer;
  }

  stop(): Promise<void> {
    this.child.process.stdin!.end();
    return this.child.stop(2000);
  }
}
