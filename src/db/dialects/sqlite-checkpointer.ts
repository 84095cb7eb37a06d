import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { CheckpointerReport, CheckpointerSettings } from './sqlite-checkpointer-thread.js';
import type { SqliteConnection } from './sqlite-connection.js';
import {
  releaseShmDescriptor,
  shmDescriptor,
  WalIndex,
  type WalState,
} from './sqlite-wal-index.js';

/** How often the thread reads the WAL-index header (one `pread` of 136 bytes). */
const POLL_MS = 10;
/**
 * While the thread runs, a writer still checkpoints as SQLite would once the WAL is this many
 * times the thread's threshold long: the thread died unseen, starved of CPU, or cannot start the
 * WAL over. SQLite counts the WAL's frames at every commit, so the check costs nothing.
 */
const WRITER_LIMIT_FACTOR = 4;
/**
 * The hard bound, in times the threshold: a write transaction that would begin with the WAL this
 * long waits (on a timer) until a checkpoint has copied all of it, so that it starts the WAL
 * over. SQLite's checkpoint on the writer gives up when the thread holds the checkpointer lock,
 * which a checkpoint slowed by the disk or a thread off the CPU can do for long; meanwhile the
 * writers would go on appending.
 */
const WRITE_GATE_FACTOR = 8;
/** How long a write waits at the gate at most, then goes ahead anyway. */
const WRITE_GATE_MS = 5000;
/** After this long without a commit from any process, the WAL file is emptied (TRUNCATE). */
const IDLE_MS = 5000;
/**
 * The thread starts this long after the writer opened: a process that only opens the database
 * for a moment (the CLI, a test) never pays for a thread, and the writer checkpoints as SQLite
 * would until it runs.
 */
const START_DELAY_MS = 1000;
/** A thread that died is started again after this pause, doubled per failure in a row. */
const FIRST_RESTART_MS = 500;
const LAST_RESTART_MS = 60_000;
/** A thread that ran this long before it died starts again after the first pause. */
const HEALTHY_MS = 60_000;
/** How long shutdown waits for the thread to close its connection before terminating it. */
const STOP_MS = 2000;

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint (`wal_autocheckpoint`, 1000
 * pages) runs inside the COMMIT that crosses the threshold: on the writer, so with a synchronous
 * driver on the main thread, copying pages and syncing files while every request of the process
 * waits. Here a worker thread with a connection of its own reads the WAL-index header every
 * 10 ms (it sees the commits of every process) and, once `pages` frames are not yet in the
 * database file, runs `PRAGMA wal_checkpoint(PASSIVE)`, which waits for no reader or writer,
 * then a RESTART checkpoint for the few frames committed meanwhile, so that the WAL starts over
 * (sqlite-checkpointer-thread.ts `startOver`). No commit depends on a checkpoint: durability
 * stays the writer's (`synchronous`), and the checkpoint syncs the WAL before it copies and the
 * database file after, as SQLite's own does.
 *
 * Every process on the file (the cluster's workers) runs a thread of its own; they share the work
 * without coordination: SQLite lets one checkpoint run at a time (the checkpointer lock), another
 * that tries meanwhile returns at once as busy, and the next one finds only the frames committed
 * since. Electing one thread across processes would add a lock and a takeover for no gain.
 *
 * The WAL stays bounded: while the thread runs, the writers keep SQLite's automatic checkpoint
 * at `WRITER_LIMIT_FACTOR` times the threshold, which only a thread that fell behind lets the WAL
 * reach, and writes wait at `WRITE_GATE_FACTOR` times (`untilWalBounded`); until the thread runs
 * and after it died, the writers checkpoint at the threshold, as SQLite would. A thread that
 * died is logged and started again.
 */
export class SqliteCheckpointer {
  private writer?: SqliteConnection;
  private thread?: Worker;
  /** The thread runs: the writer leaves checkpoints to it, up to its limit. */
  private offloaded = false;
  private stopped = false;
  private unsupported = false;
  private failures = 0;
  private starting?: NodeJS.Timeout;
  private shmFd?: number;
  private index?: WalIndex;
  private gated = false;

  constructor(
    private readonly settings: Omit<CheckpointerSettings, 'pollMs' | 'idleMs' | 'shmFd'>,
    private readonly logger: Logger,
  ) {}

  /** Called for each new writer connection, once it is in WAL mode. */
  adopt(writer: SqliteConnection): void {
    this.writer = writer;
    this.applyToWriter();
    if (!this.thread && !this.starting && !this.stopped && !this.unsupported) {
      this.startIn(START_DELAY_MS);
    }
  }

  /**
   * Before a write transaction: undefined when the WAL is within its hard bound (one `pread` of
   * the WAL-index header), else a promise that resolves once the WAL is all checkpointed (the
   * write then starts it over) or after WRITE_GATE_MS. Until then the writer itself tries a
   * PASSIVE checkpoint every few milliseconds: the last resort, on the event loop.
   */
  untilWalBounded(): Promise<void> | undefined {
    if (!this.offloaded || !this.index) return undefined;
    const limit = this.settings.pages * WRITE_GATE_FACTOR;
    const longerThanLimit = () => {
      const state = this.readIndex();
      return state !== undefined && state.lastFrame >= limit && state.pendingFrames > 0;
    };
    if (!longerThanLimit()) return undefined;
    return (async () => {
      if (!this.gated) {
        this.gated = true;
        this.logger.warn(
          { walFrames: limit },
          'SQLite WAL past its bound: writes wait for a checkpoint',
        );
      }
      const deadline = Date.now() + WRITE_GATE_MS;
      while (Date.now() < deadline && longerThanLimit()) {
        const writer = this.writer;
        // Not inside a transaction holding the writer across awaits: it will end and commit.
        if (writer?.open && !writer.inTransaction) writer.pragma('wal_checkpoint(PASSIVE)');
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      this.gated = false;
    })();
  }

  /** The WAL-index header; undefined when unreadable (the thread says why: `unsupported`). */
  private readIndex(): WalState | undefined {
    try {
      return this.index?.read();
    } catch {
      return undefined;
    }
  }

  /** The thread, while it runs (tests end it to see it started again). */
  runningThread(): Worker | undefined {
    return this.thread;
  }

  /** Stops the thread, its connection closed; the writers then checkpoint as SQLite would. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.starting);
    this.starting = undefined;
    this.setOffloaded(false);
    const thread = this.thread;
    if (!thread) return;
    // Not events.once: it rejects on an 'error' first, which a thread still starting can emit
    // after the wait below has given up (its database removed meanwhile), unhandled.
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, STOP_MS, 'late')));
    if ((await Promise.race([exited, late])) === 'late') await thread.terminate();
    clearTimeout(timer);
  }

  /**
   * Once every connection of the database handle is closed (after stop()): lets go of the
   * `-shm` file's descriptor (sqlite-wal-index.ts `releaseShmDescriptor`).
   */
  release(): void {
    const fd = this.shmFd;
    if (fd === undefined) return;
    this.shmFd = undefined;
    this.index = undefined;
    releaseShmDescriptor(this.settings.filename, fd);
  }

  private start(): void {
    // The writer has the WAL open, so its -shm file exists.
    this.shmFd ??= shmDescriptor(this.settings.filename);
    this.index ??= new WalIndex(this.shmFd);
    const settings: CheckpointerSettings = {
      ...this.settings,
      shmFd: this.shmFd,
      pollMs: POLL_MS,
      idleMs: IDLE_MS,
    };
    const thread = threadRunning(settings);
    const startedAt = Date.now();
    this.thread = thread;
    // The thread never keeps the process alive: an exit without stop() closes its connection
    // as any exit does, which SQLite is safe against.
    thread.unref();
    thread.on('message', (report: CheckpointerReport) => this.heard(report));
    thread.on('error', (error) => this.logger.error({ err: error }, 'SQLite checkpointer failed'));
    thread.on('exit', (code) => {
      this.thread = undefined;
      this.setOffloaded(false);
      if (this.stopped || this.unsupported) return;
      if (Date.now() - startedAt >= HEALTHY_MS) this.failures = 0;
      this.retryLater({ exitCode: code }, 'SQLite checkpointer thread ended');
    });
  }

  /** After a failure: the writer checkpoints itself meanwhile, the thread starts again later. */
  private retryLater(details: object, message: string): void {
    this.failures += 1;
    const pause = Math.min(FIRST_RESTART_MS * 2 ** (this.failures - 1), LAST_RESTART_MS);
    this.logger.error(
      { ...details, restartInMs: pause },
      `${message}: the writer checkpoints itself until it is back`,
    );
    this.startIn(pause);
  }

  private startIn(ms: number): void {
    this.starting = setTimeout(() => {
      this.starting = undefined;
      if (this.stopped) return;
      try {
        this.start();
      } catch (error) {
        this.retryLater({ err: error }, 'SQLite checkpointer thread could not start');
      }
    }, ms);
    this.starting.unref();
  }

  private heard(report: CheckpointerReport): void {
    switch (report.kind) {
      case 'ready':
        this.setOffloaded(true);
        return;
      case 'unsupported':
        this.unsupported = true;
        this.logger.warn(
          { reason: report.reason },
          'SQLite checkpoints stay on the writer: this SQLite WAL index cannot be read',
        );
        this.setOffloaded(false);
        return;
    }
  }

  private setOffloaded(offloaded: boolean): void {
    if (this.offloaded === offloaded) return;
    this.offloaded = offloaded && !this.stopped;
    this.applyToWriter();
  }

  private applyToWriter(): void {
    if (!this.writer?.open) return;
    const { pages } = this.settings;
    this.writer.pragma(
      `wal_autocheckpoint = ${this.offloaded ? pages * WRITER_LIMIT_FACTOR : pages}`,
    );
  }
}

/**
 * The thread, from dist/ as compiled JavaScript. From the sources (tests, `npm run dev` under
 * tsx), Node 20 does not give worker threads tsx's module hooks, so the thread's module is
 * loaded through tsx's ESM API instead.
 */
function threadRunning(settings: CheckpointerSettings): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) {
    return new Worker(new URL('./sqlite-checkpointer-thread.js', here), { workerData: settings });
  }
  const entry = new URL('./sqlite-checkpointer-thread.ts', here).href;
  const source =
    `import(${JSON.stringify(tsxEsmApi(here))})` +
    `.then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))`;
  return new Worker(source, { eval: true, workerData: settings });
}

/** tsx's ESM API, by its package's exports (tests may load this module as CommonJS). */
function tsxEsmApi(from: string): string {
  const require = createRequire(from);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}
