import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { closeUntakenConnectionsOnExit } from './handoff-guard.js';

/** The environment variable that tells a worker which slot it fills (slot 0 sweeps). */
export const WORKER_SLOT_VARIABLE = 'HPA_WORKER_SLOT';

/** A replacement waits this long after a crash, doubling per crash of a short-lived worker. */
const FIRST_BACKOFF_MS = 250;
const LONGEST_BACKOFF_MS = 30_000;
/** A worker that served this long before it died starts its slot's backoff afresh. */
const STABLE_AFTER_MS = 30_000;

interface Slot {
  worker?: Worker;
  startedAt: number;
  crashes: number;
  replacement?: NodeJS.Timeout;
}

/**
 * The primary's workers, one per slot. A worker that dies while the pool runs is logged and
 * replaced in its slot after a backoff, so a worker that crashes at once does not make the
 * primary spin; stop() asks every worker to finish its requests and waits for them.
 */
export class WorkerPool {
  private readonly slots: Slot[];
  private stopping = false;

  constructor(
    size: number,
    private readonly logger: Logger,
    maxOldSpaceMb: number,
  ) {
    this.slots = Array.from({ length: size }, () => ({ startedAt: 0, crashes: 0 }));
    // V8 grows a busy heap lazily (garbage of requests in flight is promoted and stays until a
    // major collection); a limit makes it collect sooner. A limit given to node itself wins.
    const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) =>
      flag.includes('--max-old-space-size'),
    );
    if (!given) {
      cluster.setupPrimary({
        execArgv: [...process.execArgv, `--max-old-space-size=${maxOldSpaceMb}`],
      });
    }
  }

  /**
   * Forks every worker and resolves once each listens. A worker that exits before it listens
   * (a port in use, a database that refuses connections) rejects: the service cannot start.
   */
  start(): Promise<void> {
    return Promise.all(this.slots.map((_, index) => this.fork(index))).then(() => undefined);
  }

  /** SIGTERM to every worker, SIGKILL to any still running after `timeoutMs`; true if all exited 0. */
  async stop(timeoutMs: number): Promise<boolean> {
    this.stopping = true;
    const exits: Array<Promise<boolean>> = [];
    for (const slot of this.slots) {
      clearTimeout(slot.replacement);
      const worker = slot.worker;
      if (!worker || worker.isDead()) continue;
      exits.push(
        new Promise((resolve) => {
          worker.once('exit', (code: number | null) => resolve(code === 0));
        }),
      );
      worker.process.kill('SIGTERM');
    }
    const forceKill = setTimeout(() => {
      for (const { worker } of this.slots) {
        if (worker && !worker.isDead()) {
          this.logger.warn({ pid: worker.process.pid }, 'worker did not stop in time: killing it');
          worker.process.kill('SIGKILL');
        }
      }
    }, timeoutMs);
    const results = await Promise.all(exits);
    clearTimeout(forceKill);
    return results.every(Boolean);
  }

  private fork(index: number): Promise<void> {
    const slot = this.slots[index]!;
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(index) });
    closeUntakenConnectionsOnExit(worker);
    slot.worker = worker;
    slot.startedAt = Date.now();
    return new Promise((resolve, reject) => {
      let listening = false;
      worker.once('listening', () => {
        listening = true;
        this.logger.info({ slot: index, pid: worker.process.pid }, 'worker listening');
        resolve();
      });
      worker.once('exit', (code: number | null, signal: string | null) => {
        if (this.stopping) return;
        if (!listening) {
          reject(new Error(`worker ${index} exited before it listened (${signal ?? code})`));
        }
        this.replace(index, worker, code, signal);
      });
    });
  }

  private replace(index: number, worker: Worker, code: number | null, signal: string | null) {
    const slot = this.slots[index]!;
    if (Date.now() - slot.startedAt >= STABLE_AFTER_MS) slot.crashes = 0;
    const delayMs = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** slot.crashes);
    slot.crashes += 1;
    this.logger.error(
      { slot: index, pid: worker.process.pid, code, signal, restartInMs: delayMs },
      'worker died unexpectedly: replacing it',
    );
    slot.replacement = setTimeout(() => {
      // A replacement that fails to listen is replaced in turn, after a longer wait.
      this.fork(index).catch(() => {});
    }, delayMs);
  }
}
