import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { TestDatabase } from './databases.js';
import { TEST_KEY_ENCRYPTION_SECRET, freePort } from './service.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
/** The last output kept for a failure message; a service killed mid-load may say why. */
const OUTPUT_KEPT = 8_000;

/** Limits far above what a load test sends, so that it measures storage, not the limiter. */
export const RAISED_RATE_LIMITS = {
  RATE_LIMIT_TOKEN_MAX: '1000000',
  RATE_LIMIT_SIGN_IN_MAX: '1000000',
};

/**
 * One address for every incarnation of a service: tokens name their issuer (AUTH_URL), so a
 * restarted service must come back on the same port to accept the tokens it issued before.
 */
export async function fixedAddress(): Promise<{ PORT: string; AUTH_URL: string }> {
  const port = await freePort();
  return { PORT: String(port), AUTH_URL: `http://127.0.0.1:${port}` };
}

/** The service as its own operating-system process: `node --import tsx src/main.ts`. */
export interface ServiceProcess {
  url: string;
  /** What the process has written (the last few thousand characters). */
  output(): string;
  /** SIGKILL: no shutdown, no flush, no goodbye. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the process to exit; returns its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the real entry point against a test database and waits until `/readyz` answers 200
 * (migrations applied, a write committed). It listens on `env.PORT` (or a free port) and issues
 * tokens as its own address unless `env.AUTH_URL` names a shared issuer.
 */
export async function startServiceProcess(
  database: TestDatabase,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const address = env.PORT ? { PORT: env.PORT } : await fixedAddress();
  const url = `http://127.0.0.1:${address.PORT}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  try {
    await waitUntilReady(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${(error as Error).message}\n--- service output ---\n${output}`, {
      cause: error,
    });
  }
  return {
    url,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
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

function nonEmpty(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
}
