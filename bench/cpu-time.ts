import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux the bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; 0 once it is
 * gone. The command name (field 2) may hold spaces and parentheses, so fields are counted from
 * the last ')'.
 */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * The CPU time a set of processes spends during a measurement: what each used at `stop` minus
 * what it had used at the start. On a machine shared with other work, CPU per request moves far
 * less than requests per second, since it does not count the time a process waited for a core.
 */
export class CpuMeter {
  private readonly started: Map<number, number>;

  constructor(private readonly processIds: () => number[]) {
    this.started = new Map(processIds().map((pid) => [pid, cpuSecondsOf(pid)]));
  }

  /** CPU seconds used since the meter started, over the processes alive at both ends. */
  stop(): number {
    let used = 0;
    for (const seconds of this.stopEach().values()) used += seconds;
    return used;
  }

  /** The same, per process. */
  stopEach(): Map<number, number> {
    const used = new Map<number, number>();
    for (const pid of this.processIds()) {
      const before = this.started.get(pid);
      if (before !== undefined) used.set(pid, Math.max(0, cpuSecondsOf(pid) - before));
    }
    return used;
  }
}
