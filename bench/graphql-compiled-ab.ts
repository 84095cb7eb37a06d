/**
 * The P2 request over HTTP, compiled queries on against off, measured in turns under the same
 * machine load: two services in this process over one database (one event of the test
 * fixtures' shape), loaded one at a time by the bench's load driver (a process of its own) with
 * 50 connections, in alternating bursts. What each burst costs this process in CPU, per
 * response, is the service's: the other service is idle meanwhile.
 *
 *   npx tsx bench/graphql-compiled-ab.ts [sqlite|postgres] [bursts per mode] [seconds per burst]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createTestDatabase, type Dialect } from '../test/support/databases.js';
import {
  employerAppPrincipal,
  insertEventGraph,
  insertTenant,
} from '../test/support/interview-fixtures.js';
import { startTestService } from '../test/support/service.js';
import type { LoadJob, LoadResult } from './load-protocol.js';
import { EVENTS_BY_ID } from './operations.js';

const dialect = (process.argv[2] ?? 'sqlite') as Dialect;
const bursts = Number(process.argv[3] ?? 6);
const seconds = Number(process.argv[4] ?? 3);

const database = await createTestDatabase(dialect);
const driver = spawn(process.execPath, ['--import', 'tsx', 'bench/load-driver.ts'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: driver.stdout })[Symbol.asyncIterator]();
try {
  await lines.next();
  const tenant = await insertTenant(database.db);
  const graph = await insertEventGraph(database.db, tenant);
  const principal = employerAppPrincipal(tenant);
  const services = {
    off: await startTestService(database, {
      authenticate: async () => principal,
      env: { GRAPHQL_COMPILED_QUERIES: 'off' },
    }),
    on: await startTestService(database, { authenticate: async () => principal }),
  };
  let id = 0;
  const load = async (url: string, burstSeconds: number) => {
    const job: LoadJob = {
      id: (id += 1),
      url: `${url}/graphql`,
      method: 'POST',
      headers: { authorization: 'Bearer any', 'content-type': 'application/json' },
      body: JSON.stringify({ query: EVENTS_BY_ID, variables: { ids: [graph.event.id] } }),
      connections: 50,
      seconds: burstSeconds,
      graphql: true,
    };
    driver.stdin.write(`${JSON.stringify(job)}\n`);
    const startedCpu = process.cpuUsage();
    const result = JSON.parse((await lines.next()).value as string) as LoadResult;
    const used = process.cpuUsage(startedCpu);
    if (result.graphqlErrors || result.non2xx) throw new Error(JSON.stringify(result));
    return {
      cpu: (used.user + used.system) / result.responses,
      rps: result.requestsPerSecond,
    };
  };
  for (const service of Object.values(services)) await load(service.url, 2);
  const measured: Record<string, { cpu: number[]; rps: number[] }> = {};
  for (let burst = 0; burst < bursts; burst += 1) {
    const order = burst % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const mode of order) {
      const { cpu, rps } = await load(services[mode].url, seconds);
      (measured[mode] ??= { cpu: [], rps: [] }).cpu.push(cpu);
      measured[mode].rps.push(rps);
    }
  }
  console.log(`${dialect}: ${bursts} bursts of ${seconds} s per mode, 50 connections`);
  for (const [mode, { cpu, rps }] of Object.entries(measured)) {
    console.log(
      `compiled queries ${mode.padEnd(3)}: CPU µs/req median ${median(cpu).toFixed(0)} ` +
        `(each: ${cpu.map((v) => v.toFixed(0)).join(' ')}); req/s median ${median(rps).toFixed(0)}`,
    );
  }
  await Promise.all(Object.values(services).map((service) => service.stop()));
} finally {
  driver.stdin.end();
  await database.dispose();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
