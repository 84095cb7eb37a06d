import assert from 'node:assert/strict';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import type { TestDatabase } from '../support/databases.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin CLI's program run in this process over a suite's test database, as an operator's
 * shell would run it: `run` gives the exit code and both outputs, `json` the parsed `--json`
 * output of a command that must succeed, and `appOfNewOwner` a new user and an app of theirs,
 * made through the CLI too.
 */
export function inProcessCli(database: () => TestDatabase) {
  async function run(...argv: string[]): Promise<CliRun> {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stderr += text),
    };
    const code = await runProgram(argv, io, async () => testCliServices(database().db));
    return { code, stdout, stderr };
  }

  async function json(...argv: string[]) {
    const result = await run('--json', ...argv);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  }

  async function appOfNewOwner(name: string): Promise<{ clientId: string; appId: string }> {
    const email = `${name.toLowerCase()}-${Date.now()}@example.com`;
    await json('user', 'create', '--email', email, '--password', 'correct horse');
    const created = await json('app', 'create', '--owner', email, '--name', name);
    return { clientId: created.client_id, appId: created.app.id };
  }

  return { run, json, appOfNewOwner };
}
