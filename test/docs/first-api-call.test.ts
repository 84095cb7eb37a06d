import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';
import { REPOSITORY, readmeSection, shellBlocks } from './readme.js';

const execFileAsync = promisify(execFile);
const STEP = '@@ step';

/**
 * The README's "First API call in five minutes", run as written: every ```sh block after the
 * start command, in one bash session (as in one terminal), against a service this test starts
 * on a fresh SQLite database. Only `BASE` and the server's environment come from the test.
 */
describe('README: first API call in five minutes [sqlite]', function () {
  this.timeout(300_000);
  let database: TestDatabase & { dispose(): Promise<void> };
  let service: ServiceProcess;
  const blocks = shellBlocks(readmeSection('First API call in five minutes'));

  before(async () => {
    // No migration here: like a fresh clone, the service prepares its own database.
    database = await createTestDatabase('sqlite', { migrate: false });
    service = await startServiceProcess(database, { SWEEP_INTERVAL_MS: '30000' });
  });
  after(async () => {
    await service?.stop();
    await database?.dispose();
  });

  it('starts the service with the quick start command', () => {
    const quickStart = shellBlocks(readmeSection('Quick start'))[0]!.split('\n')[0]!;
    assert.equal(blocks[0]!.trim(), quickStart.replace(/#.*$/, '').trim());
  });

  it('gets a token, schedules an interview and finds it, with the commands as written', async () => {
    const steps = await runInOneShell(blocks.slice(1), {
      ...serverEnvironment(database, service),
      BASE: service.url,
    });
    const output = (marker: string) => {
      const found = steps.find((step) => step.block.includes(marker));
      assert.ok(found, `no README block contains ${marker}`);
      return found.stdout.trim();
    };

    assert.match(output('app create'), /^employer [0-9a-f-]{36}, app \S+$/m);
    assert.doesNotMatch(output('app create'), /undefined/);
    assert.match(output('grant_type=client_credentials'), /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);

    const created = JSON.parse(output('createVirtualInterviewEvent'));
    const event = created.data?.createVirtualInterviewEvent?.event;
    assert.ok(event?.id, JSON.stringify(created));
    assert.equal(event.title, 'First round');
    assert.equal(event.status, 'SCHEDULED');
    assert.ok(event.interviewerLobbyUrl.startsWith(`${service.url}/lobby/interviewer/`));

    const found = JSON.parse(output('findVirtualInterviewEvents'));
    const page = found.data?.findVirtualInterviewEvents;
    assert.ok(page, JSON.stringify(found));
    assert.equal(page.totalCount, 1);
    assert.deepEqual(
      page.events.map((each: { id: string }) => each.id),
      [event.id],
    );
  });
});

/** What the README tells the reader to give the CLI: the server's own environment. */
function serverEnvironment(database: TestDatabase, service: ServiceProcess) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? REPOSITORY,
    KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
    AUTH_URL: service.url,
  };
  for (const [name, value] of Object.entries(database.env)) if (value) env[name] = value;
  return env;
}

/**
 * Runs the blocks one after the other in one bash process, so that variables and functions
 * carry over, and returns each block's output. A failing command stops the run.
 */
export async function runInOneShell(
  blocks: string[],
  env: Record<string, string>,
): Promise<{ block: string; stdout: string }[]> {
  const script = blocks
    .map((block, index) => `printf '\\n${STEP} ${index}\\n'\n${block}`)
    .join('\n');
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync('bash', ['-e', '-o', 'pipefail', '-c', script], {
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
  return blocks.map((block, index) => ({ block, stdout: outputs[index]! }));
}
