import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { WORKER_SLOT_VARIABLE } from '../src/cluster/worker-pool.js';

/** The last output of a child kept for error messages. */
const OUTPUT_KEPT = 8_000;

/** A child process of the harness, with the tail of what it wrote. */
export interface Child {
  process: ChildProcess;
  /** The last few thousand characters of stdout and stderr. */
  output(): string;
  exited: Promise<unknown>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export function spawnChild(
  command: string,
  args: readonly string[],
  options: {
    cwd: string;
    env: Record<string, string>;
    onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  },
): Child {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of ['stdout', 'stderr'] as const) {
    let partial = '';
    child[stream]!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
      if (!options.onLine) return;
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) options.onLine(line, stream);
    });
  }
  const exited = once(child, 'exit');
  return {
    process: child,
    output: () => output,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A port nobody listens on right now (the service needs it before it starts: AUTH_URL). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (!address || typeof address === 'string') throw new Error('no port was assigned');
  return address.port;
}

/** The process and its descendants (node:cluster workers), by reading /proc. */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) tree.push(...childrenOf(tree[index]!));
  return tree;
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * The cluster slot (src/cluster/worker-pool.ts) of the worker that used the most CPU, from
 * CPU seconds per process; null when no process is a cluster worker. One connection's requests
 * all go to the worker that accepted it, so this names the worker that served them.
 */
export function busiestWorkerSlot(cpuSeconds: ReadonlyMap<number, number>): number | null {
  let busiest: { slot: number; seconds: number } | null = null;
  for (const [pid, seconds] of cpuSeconds) {
    const slot = workerSlotOf(pid);
    if (slot !== null && (!busiest || seconds > busiest.seconds)) busiest = { slot, seconds };
  }
  return busiest?.slot ?? null;
}

function workerSlotOf(pid: number): number | null {
  try {
    const variables = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const slot = variables.find((entry) => entry.startsWith(`${WORKER_SLOT_VARIABLE}=`));
    return slot ? Number(slot.slice(WORKER_SLOT_VARIABLE.length + 1)) : null;
  } catch {
    return null;
  }
}

/** Resident memory of a process in bytes: now (VmRSS) and its peak so far (VmHWM). */
export function residentMemory(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
  } catch {
    return undefined;
  }
}
