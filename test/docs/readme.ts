import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';

export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const STEP = '@@ step';
const execFileAsync = promisify(execFile);

/** The text under a `## ` heading of the README, up to the next heading of that level. */
export function readmeSection(heading: string): string {
  const text = readFileSync(`${REPOSITORY}/README.md`, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The contents of the section's ```sh blocks, in order. */
export function shellBlocks(section: string): string[] {
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** The one block of the blocks that contains `marker`. */
export function blockWith(blocks: string[], marker: string): string {
  const found = blocks.filter((block) => block.includes(marker));
  assert.equal(found.length, 1, `expected one README block with ${marker}, found ${found.length}`);
  return found[0]!;
}

/**
 * What the README tells the reader to give the CLI: the server's database settings (no PORT or
 * AUTH_URL: the CLI reads the issuer the server recorded), and BASE, where the service answers.
 */
export function serverEnvironment(
  database: TestDatabase,
  service: ServiceProcess,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? REPOSITORY,
    KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
    BASE: service.url,
  };
  for (const [name, value] of Object.entries(database.env)) if (value) env[name] = value;
  return env;
}

/**
 * Runs the blocks one after the other in one bash process (as in one terminal), so that
 * variables and functions carry over, and returns each block's standard output. A failing
 * command stops the run and fails with everything printed.
 */
export async function runInOneShell(
  blocks: string[],
  env: Record<string, string>,
): Promise<string[]> {
  // curl prints no final line break: each marker starts a line of its own.
  const script = blocks.map((block, index) => `printf '\\n${STEP} ${index}\\n'\n${block}`);
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync('bash', ['-e', '-o', 'pipefail', '-c', script.join('\n')], {
      cwd: REPOSITORY,
      env,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `the README's commands failed: ${failed.message}\n--- stdout ---\n${failed.stdout}\n` +
        `--- stderr ---\n${failed.stderr}`,
      { cause: error },
    );
  }
  const outputs = stdout.split(new RegExp(`\\n${STEP} \\d+\\n`)).slice(1);
  assert.equal(outputs.length, blocks.length, stdout);
  return outputs.map((output) => output.trim());
}

/**
 * For the suite that calls it: a service process of its own on a fresh SQLite database, which
 * the service prepares itself as on a fresh clone; started before the suite, stopped after.
 */
export function readmeService(): { database(): TestDatabase; service(): ServiceProcess } {
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: ServiceProcess | undefined;
  before(async () => {
    database = await createTestDatabase('sqlite', { migrate: false });
    service = await startServiceProcess(database);
  });
  after(async () => {
    await service?.stop();
    await database?.dispose();
  });
  return { database: () => database!, service: () => service! };
}
