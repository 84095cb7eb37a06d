import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestDatabase } from './databases.js';
import { TEST_KEY_ENCRYPTION_SECRET } from './service.js';

const exec = promisify(execFile);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run -s cli` as an operator runs it on the server's machine: the database and the
 * key-encryption secret of the server, and nothing else of its environment (no NODE_ENV, PORT
 * or AUTH_URL) unless `env` adds it.
 */
export async function runCli(
  database: TestDatabase,
  argv: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  try {
    const { stdout, stderr } = await exec('npm', ['run', '-s', 'cli', '--', ...argv], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...Object.fromEntries(Object.entries(database.env).filter(([, value]) => value !== '')),
        KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
        LOG_LEVEL: 'silent',
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
