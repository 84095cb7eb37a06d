import { residentMemory } from './processes.js';

const SAMPLE_INTERVAL_MS = 200;

/**
 * Samples the resident memory of a process tree (the service and its cluster workers) every
 * 200 ms while a measurement runs; the peak is the largest VmRSS of any one process.
 */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly processIds: () => number[]) {
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
  }

  /** Stops sampling; the peak in bytes over the processes and the samples. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }

  private sample(): void {
    for (const pid of this.processIds()) {
      const memory = residentMemory(pid);
      if (memory && memory.rss > this.peak) this.peak = memory.rss;
    }
  }
}

/** The highest VmHWM (peak resident memory since start) of any process of the tree. */
export function highWaterMark(processIds: readonly number[]): number {
  return Math.max(0, ...processIds.map((pid) => residentMemory(pid)?.peak ?? 0));
}
