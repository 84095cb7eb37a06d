import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onWorkerBroadcast, publishToWorkers } from '../../src/cluster/broadcast.js';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { TokenRequests } from '../support/token-requests.js';
import { parseSamples, sumOf } from './prometheus-text.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const METRICS_TOKEN = 'cluster-metrics-token-0123456789';
const REQUESTS = 8;

interface LogLine {
  msg?: string;
  worker?: number;
  slot?: number;
  pid?: number;
  path?: string;
}

function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return []; // a line cut by the kept-output window
    }
  });
}

/** The pids of the workers that have reported listening, by slot (the latest for each). */
function workerPids(output: string): Map<number, number> {
  const pids = new Map<number, number>();
  for (const line of logLines(output)) {
    if (line.msg === 'worker listening') pids.set(line.slot!, line.pid!);
  }
  return pids;
}

async function waitFor<T>(what: string, probe: () => T | undefined | false): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A request on a fresh connection, so the cluster's round robin picks a worker for each. */
function freshGet(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers: { connection: 'close', ...headers } });
}

describeEachDialect('cluster workers (WORKERS=2)', (database) => {
  let service: ServiceProcess | undefined;

  afterEach(async () => {
    await service?.kill();
    service = undefined;
  });

  it('share the port, aggregate /metrics, replace a killed worker and stop on SIGTERM', async function () {
    this.timeout(120_000);
    service = await startServiceProcess(database(), {
      WORKERS: '2',
      LOG_LEVEL: 'info',
      METRICS_TOKEN,
    });
    const running = service;
    const pids = await waitFor('both workers', () => {
      const found = workerPids(running.output());
      return found.size === 2 && found;
    });

    const tenant = await createOAuthTenant(database().db, systemClock, 'cluster');
    for (let i = 0; i < REQUESTS; i++) {
      assert.equal((await freshGet(`${running.url}/healthz`)).status, 200);
    }
    const issued = await new TokenRequests(running.url, tenant.app).clientCredentials();
    assert.equal(issued.status, 200);
    const answeredBy = new Set(
      logLines(running.output())
        .filter((line) => line.path === '/healthz')
        .map((line) => line.worker),
    );
    assert.deepEqual([...answeredBy].sort(), [0, 1], 'both workers answered');

    // Whichever worker answers the scrape, it reports both workers' series.
    const scrape = await freshGet(`${running.url}/metrics`, {
      authorization: `Bearer ${METRICS_TOKEN}`,
    });
    assert.equal(scrape.status, 200);
    const samples = parseSamples(await scrape.text());
    const healthChecks = { method: 'GET', route: '/healthz', status_code: '200' };
    assert.equal(sumOf(samples, 'http_request_duration_seconds_count', healthChecks), REQUESTS);
    assert.equal(
      sumOf(samples, 'oauth_tokens_issued_total', { grant_type: 'client_credentials' }),
      1,
    );
    assert.ok(sumOf(samples, 'db_query_duration_seconds_count') > 0);
    assert.equal((await freshGet(`${running.url}/metrics`)).status, 401);

    process.kill(pids.get(1)!, 'SIGKILL');
    const replaced = await waitFor('a replacement worker', () => {
      const now = workerPids(running.output()).get(1);
      return now !== undefined && now !== pids.get(1) && now;
    });
    assert.ok(replaced);
    assert.match(running.output(), /worker died unexpectedly: replacing it/);
    for (let i = 0; i < 4; i++) {
      assert.equal((await freshGet(`${running.url}/healthz`)).status, 200);
    }

    assert.equal(await running.stop(), 0);
    assert.match(running.output(), /"clean":true,"msg":"shutdown complete"/);
    for (const pid of [pids.get(0)!, replaced]) {
      assert.throws(() => process.kill(pid, 0), 'the worker has exited');
    }
  });
});

describe('broadcasts between cluster workers', () => {
  it('reach every other worker, unchanged, on their channel only', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'test/observability/fixtures/broadcast-cluster.ts'],
      { cwd: REPOSITORY, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(run.status, 0, run.stderr);
    const delivered = JSON.parse(run.stdout.trim()) as Record<string, unknown[]>;
    const first = { from: 1, nested: { list: [1, 'two', null] } };
    assert.deepEqual(delivered, {
      1: [{ from: 2 }],
      2: [first],
      3: [first, { from: 2 }],
    });
  });

  it('are neither sent nor received outside a cluster worker', () => {
    let heard = 0;
    const stop = onWorkerBroadcast('anything', () => heard++);
    publishToWorkers('anything', { ignored: true });
    process.emit('message', { type: 'hpa:broadcast', channel: 'anything', payload: 1 }, undefined);
    stop();
    assert.equal(heard, 0);
  });
});
