import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { allScenarios, SCENARIO_NAMES } from '../../bench/scenarios/index.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const DEEP_PAGE = 3;

/**
 * `npm run bench -- --quick` with tiny durations and seed sizes: the harness starts the service
 * (both configurations), the peers and the load driver, measures every scenario and writes a
 * results.json that matches bench/results.schema.json. Figures are not asserted, only that each
 * scenario was measured, served requests and saw no errors.
 */
describe('benchmark harness (--quick, tiny)', function () {
  this.timeout(180_000);
  const directory = mkdtempSync(join(tmpdir(), 'hpa-bench-test-'));
  const resultsPath = join(directory, 'results.json');
  let exitCode: number | null;
  let stdout = '';
  let stderr = '';

  before(async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/run.ts',
        '--quick',
        ...['--seconds', '0.3', '--serial-seconds', '0.3', '--connections', '4'],
        ...['--small-events', '200', '--large-events', '300', '--other-events', '50'],
        ...['--deep-page', String(DEEP_PAGE), '--results', resultsPath],
        ...['--webhook-seconds', '2', '--webhook-rate', '20', '--webhook-endpoints', '2'],
        ...[
          '--job-search-small',
          '200',
          '--job-search-large',
          '400',
          '--job-search-requests',
          '16',
          '--job-search-warmup',
          '8',
        ],
      ],
      { cwd: REPOSITORY, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    [exitCode] = (await once(child, 'exit')) as [number | null];
  });

  after(() => rmSync(directory, { recursive: true, force: true }));

  it('exits 0 and prints the table, P4 and the machine', () => {
    assert.equal(exitCode, 0, `the harness failed:\n${stderr.slice(-4000)}`);
    assert.match(stdout, /^scenario +events +db +workers +req\/s/m);
    assert.match(stdout, /^P4 peak RSS/m);
    assert.match(stdout, /^machine: .*cores/m);
  });

  it('writes results that validate against bench/results.schema.json', () => {
    const schema = JSON.parse(readFileSync(join(REPOSITORY, 'bench/results.schema.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    assert.ok(validate(readResults()), JSON.stringify(validate.errors, null, 2));
    assert.deepEqual(readResults().problems, []);
  });

  it('measures every scenario on every target at each of its stages, without errors', () => {
    const rows = readResults().rows as any[];
    const expected = allScenarios(DEEP_PAGE).flatMap((scenario) =>
      scenario.stages.flatMap((stage) =>
        (scenario.subject.kind === 'service' ? ['default', '1'] : [scenario.subject.peer]).map(
          (target) => `${scenario.name} | ${stage} | ${target}`,
        ),
      ),
    );
    const measured = rows.map((row) => `${row.scenario} | ${row.stage} | ${row.target.label}`);
    assert.deepEqual([...measured].sort(), [...expected].sort());
    for (const row of rows) {
      const what = `${row.scenario} on ${row.target.label} (${row.stage})`;
      assert.equal(row.rounds, 1, what);
      assert.ok(row.requestsPerSecond > 0, `${what} served no request`);
      assert.equal(row.errors.total, 0, `${what}: ${JSON.stringify(row.errors)}`);
      // Counted in 10 ms ticks: a tiny one-connection measurement may use less than one.
      assert.equal(typeof row.cpuMicrosPerResponse, 'number', `${what}: CPU per request`);
    }
  });

  it('compares P1, P2, P6, P7, P8 and Job Sync writes with the peers of the same run, against their targets', () => {
    const rows = readResults().rows as any[];
    const targets: Array<[string, string, number]> = [
      [SCENARIO_NAMES.clientCredentials, 'oidc-provider', 1.2],
      [SCENARIO_NAMES.eventsById, 'graphql-http', 0.6],
      [SCENARIO_NAMES.refresh, 'oidc-provider', 1],
      [SCENARIO_NAMES.introspection, 'oidc-provider', 1],
      [SCENARIO_NAMES.create, 'same-writes', 0.5],
      [SCENARIO_NAMES.sourcedPostings, 'same-posting-writes', 0.4],
    ];
    for (const [scenario, peer, value] of targets) {
      const compared = rows.filter((row) => row.scenario === scenario);
      assert.equal(compared.length, 2, `${scenario}: both configurations`);
      for (const row of compared) {
        const what = `${scenario} on ${row.target.label}`;
        assert.equal(row.comparison?.against, peer, what);
        assert.deepEqual(row.comparison.target, { operator: '>=', value }, what);
        assert.ok(row.comparison.ratio > 0, `${what}: ratio ${row.comparison.ratio}`);
        assert.ok(row.comparison.cpuRatio > 0, `${what}: CPU ratio ${row.comparison.cpuRatio}`);
        assert.equal(typeof row.comparison.met, 'boolean', what);
      }
    }
  });

  it('measures the job search stage at both sizes, finding postings', () => {
    const jobSearch = readResults().jobSearch;
    assert.ok(jobSearch, 'no job search stage in the results');
    assert.deepEqual([jobSearch.small.postings, jobSearch.large.postings], [200, 400]);
    for (const stage of [jobSearch.small, jobSearch.large]) {
      assert.equal(stage.requests, 16);
      assert.ok(stage.latencyMs.p50 > 0);
      assert.equal(stage.searchP50Ms.length, 8, 'a p50 for each search');
      assert.ok(stage.searchP50Ms.every((p50: number) => p50 > 0));
    }
    assert.ok(jobSearch.large.meanResults > 0, 'the searches found nothing');
    assert.equal(typeof jobSearch.met, 'boolean');
  });

  it('measures the webhook stage: every delivery verified, the outbox emptied', () => {
    const webhooks = readResults().webhooks;
    assert.ok(webhooks, 'no webhook stage in the results');
    assert.equal(webhooks.allVerified, true, JSON.stringify(webhooks.deliveries));
    assert.ok(webhooks.deliveries.written > 0, 'no delivery was written');
    assert.equal(webhooks.outbox.depthAfterDrain, 0);
    assert.ok(webhooks.api.requestsPerSecond > 0, 'the API served no request');
    assert.equal(typeof webhooks.met, 'boolean');
  });

  function readResults(): any {
    return JSON.parse(readFileSync(resultsPath, 'utf8'));
  }
});
