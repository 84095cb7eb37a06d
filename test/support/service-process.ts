import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestDatabase } from './databases.js';
import { TEST_KEY_ENCRYPTION_SECRET, freePort } from './service.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
/** The last output kept for a failure message; a service killed mid-load may say why. */
const OUTPUT_KEPT = 8_000;

export interface ServiceProcessOptions {
  /**
   * `tail` (the default): `output()` keeps the last few thousand characters; `all`: everything
   * the processes wrote, for a test that reads the whole log.
   */
  keepOutput?: 'tail' | 'all';
}

/** Limits far above what a load test sends, so that it measures storage, not the limiter. */
export const RAISED_RATE_LIMITS = {
  RATE_LIMIT_TOKEN_MAX: '1000000',
  RATE_LIMIT_SIGN_IN_MAX: '1000000',
  // The GraphQL cost budget per client is on in production: a test of answer sizes spends a
  // default budget's worth in a few requests.
  GRAPHQL_COST_BUDGET: '2000000000',
};

/**
 * One address for every incarnation of a service: tokens name their issuer (AUTH_URL), so a
 * restarted service must come back on the same port to accept the tokens it issued before.
 */
export async function fixedAddress(): Promise<{ PORT: string; AUTH_URL: string }> {
  const port = await freePort();
  return { PORT: String(port), AUTH_URL: `http://127.0.0.1:${port}` };
}

/**
 * How the service runs:
 * - `process`: one process from source (`node --import tsx src/main.ts`), no cluster;
 * - `cluster`: the production default — the built service (`node dist/src/main.js`) with
 *   `NODE_ENV=production`, a cluster primary and `WORKERS` (2) workers sharing the port.
 */
export type Deployment = 'process' | 'cluster';

/** Both, for suites that must hold in each (`for (const deployment of DEPLOYMENTS)`). */
export const DEPLOYMENTS: readonly Deployment[] = ['process', 'cluster'];

/** Workers of the `cluster` deployment, as on the two-core machine the README describes. */
export const CLUSTER_WORKERS = 2;

/** The service as its own operating-system process (or a cluster of them). */
export interface ServiceProcess {
  url: string;
  deployment: Deployment;
  /** What the processes have written: the last few thousand characters, or all (`keepOutput`). */
  output(): string;
  /**
   * Workers that died while the service ran (a cluster primary logs and replaces them), and
   * V8's fatal out-of-memory reports; either is a defect a test must see even when the
   * replacement keeps the service answering.
   */
  crashes(): string[];
  /** The primary's pid (`process`: the one process). */
  pid: number;
  /** The cluster workers' pids now (`process`: the one process). */
  workerPids(): number[];
  /** Resident memory of each worker now, in bytes (from /proc). */
  workerRss(): number[];
  /** CPU time each worker has used so far, in seconds (from /proc): who served a load. */
  workerCpuSeconds(): number[];
  /** SIGKILL: no shutdown, no flush, no goodbye (the primary; its workers go with it). */
  kill(): Promise<void>;
  /**
   * SIGKILL of every cluster worker and then the primary, so that no worker runs a step after
   * the kill (on the primary's death alone, a worker exits only once it notices).
   */
  killAll(): Promise<void>;
  /** SIGKILL of one cluster worker; the primary replaces it. Resolves with the victim's pid. */
  killWorker(): number;
  /** SIGTERM, then waits for the process to exit; returns its exit code. */
  stop(): Promise<number | null>;
}

let built = false;

/**
 * The `cluster` deployment runs the build, as production does: build once per test run
 * (`npm run build` is incremental, so an unchanged checkout costs a few seconds).
 */
export function ensureBuilt(): void {
  if (built) return;
  execFileSync('npm', ['run', '-s', 'build'], { cwd: REPOSITORY, stdio: 'pipe' });
  built = true;
}

/**
 * Starts the real entry point against a test database and waits until `/readyz` answers 200
 * (migrations applied, a write committed). It listens on `env.PORT` (or a free port) and issues
 * tokens as its own address unless `env.AUTH_URL` names a shared issuer.
 */
export async function startServiceProcess(
  database: TestDatabase,
  env: Record<string, string> = {},
  deployment: Deployment = 'process',
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const address = env.PORT ? { PORT: env.PORT } : await fixedAddress();
  const url = `http://127.0.0.1:${address.PORT}`;
  if (deployment === 'cluster') ensureBuilt();
  const entry =
    deployment === 'cluster' ? ['dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, entry, {
    cwd: REPOSITORY,
    env: {
      PATH: process.env.PATH,
      ...nonEmpty(database.env),
      HOST: '127.0.0.1',
      AUTH_URL: url,
      ...address,
      KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
      // Errors only: a defect that logs (a stray transaction, a failed commit) shows in failures.
      LOG_LEVEL: 'error',
      SWEEP_INTERVAL_MS: '0',
      ...(deployment === 'cluster' && {
        NODE_ENV: 'production',
        WORKERS: String(CLUSTER_WORKERS),
      }),
      ...env,
    },
    // The cluster primary reports over IPC once every worker listens.
    stdio:
      deployment === 'cluster' ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  // The primary says when every worker listens; /readyz alone may be answered by the first.
  const allListening =
    deployment === 'cluster'
      ? new Promise<void>((resolve) => {
          child.on('message', (message: { type?: string }) => {
            if (message?.type === 'ready') resolve();
          });
        })
      : Promise.resolve();
  let output = '';
  const keepAll = options.keepOutput === 'all';
  const crashes: string[] = [];
  let pending = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output = keepAll ? output + text : (output + text).slice(-OUTPUT_KEPT);
    // Whole lines only, so a report split across chunks is still recognised.
    const lines = (pending + text).split('\n');
    pending = lines.pop()!.slice(-OUTPUT_KEPT);
    for (const line of lines) if (CRASH_SIGNS.test(line)) crashes.push(line.slice(0, 500));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  try {
    await waitUntilReady(url, child);
    await Promise.race([
      allListening,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the workers did not all listen')), READY_TIMEOUT_MS),
      ),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${(error as Error).message}\n--- service output ---\n${output}`, {
      cause: error,
    });
  }
  const pid = child.pid!;
  const workerPids = () => (deployment === 'cluster' ? childrenOf(pid) : [pid]);
  const service: ServiceProcess = {
    url,
    deployment,
    pid,
    output: () => output,
    crashes: () => [...crashes],
    workerPids,
    workerRss: () => workerPids().map(residentBytes),
    workerCpuSeconds: () => workerPids().map(cpuSeconds),
    killWorker() {
      const victim = workerPids()[0];
      if (deployment !== 'cluster' || victim === undefined) {
        throw new Error('killWorker needs a running cluster deployment');
      }
      process.kill(victim, 'SIGKILL');
      return victim;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async killAll() {
      for (const worker of workerPids()) if (worker !== pid) process.kill(worker, 'SIGKILL');
      await service.kill();
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
  return service;
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the service exited before it was ready (${child.exitCode ?? child.signalCode})`,
      );
    }
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the service at ${url} was not ready within ${READY_TIMEOUT_MS} ms`);
}

/** A worker's death as the primary logs it, or V8's fatal reports (heap exhausted). */
const CRASH_SIGNS =
  /worker died unexpectedly|FATAL ERROR|Reached heap limit|JavaScript heap out of memory/;

/** Child pids of a process, from Linux's /proc (the cluster's workers). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Waits until the primary has replaced a killed worker; fails when it does not. */
export async function workersReplaced(service: ServiceProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (service.workerPids().length < CLUSTER_WORKERS && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (service.workerPids().length < CLUSTER_WORKERS) {
    throw new Error(`the primary did not replace the killed worker\n${service.output()}`);
  }
}

/** User and system time of a process (fields 14 and 15 of /proc/<pid>/stat, in clock ticks). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After the command's closing parenthesis, field 3 (state) is the first: 14 and 15 at 11, 12.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

function residentBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function nonEmpty(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
}
