/**
 * Microseconds per execution of the P2 document (EVENTS_BY_ID) in one process, without HTTP:
 * graphql-js's `execute` against the gateway's compiled executor (graphql-jit), over the
 * Interview API's resolvers and a database holding one event of the test fixtures' shape (two
 * interviewers, one interviewee). Each execution gets a request's context (new loaders, a new
 * answer budget), as the gateway gives it. Both must answer the same JSON text. Also how long
 * compiling the document takes, which the gateway does once per document and operation.
 *
 *   npx tsx bench/graphql-execution.ts [sqlite|postgres] [executions per round] [in flight]
 */
import assert from 'node:assert/strict';
import { execute, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { compileQuery } from 'graphql-jit';
import { CompiledExecutor } from '../src/graphql/compiled-execution.js';
import type { GatewayContext } from '../src/graphql/context.js';
import { AnswerBudget, countAnswers } from '../src/graphql/limits/answer-size.js';
import { composeApis } from '../src/graphql/api-registry.js';
import { composeInterviews } from '../src/interviews/compose.js';
import type { InterviewContext } from '../src/interviews/context.js';
import { interviewApi } from '../src/interviews/graphql-api.js';
import { composeRecordings } from '../src/recordings/compose.js';
import { NO_WEBHOOKS } from '../src/webhooks/outbox.js';
import { testAccounts, testSharedDependencies } from '../test/support/compose.js';
import { createTestDatabase, type Dialect } from '../test/support/databases.js';
import {
  employerAppPrincipal,
  insertEventGraph,
  insertTenant,
} from '../test/support/interview-fixtures.js';
import { silentLogger } from '../test/support/logger.js';
import { EVENTS_BY_ID } from './operations.js';

const dialect = (process.argv[2] ?? 'sqlite') as Dialect;
const executions = Number(process.argv[3] ?? 2000);
/** Executions in flight at once, as concurrent requests interleave in a worker. */
const concurrency = Number(process.argv[4] ?? 1);
const ROUNDS = 5;

const database = await createTestDatabase(dialect);
try {
  const { db } = database;
  const tenant = await insertTenant(db);
  const graph = await insertEventGraph(db, tenant);
  const shared = testSharedDependencies(db);
  const interviews = composeInterviews(shared, {
    accounts: testAccounts(db),
    recordings: composeRecordings(shared),
    outbox: NO_WEBHOOKS,
  });
  const schema = countAnswers(
    composeApis([interviewApi(interviews)]).schema,
    (context) => (context as GatewayContext).answer,
  );
  const document = parse(EVENTS_BY_ID);
  const principal = employerAppPrincipal(tenant);
  const limits = shared.config.graphql;
  const args = (): ExecutionArgs => ({
    schema,
    document,
    variableValues: { ids: [graph.event.id] },
    contextValue: {
      requestId: 'bench',
      logger: silentLogger,
      principal,
      answer: new AnswerBudget({
        maxNodes: limits.maxResponseNodes,
        maxBytes: limits.maxResponseBytes,
      }),
      loaders: interviews.createLoaders(),
      interviews: { writer: interviews.writer, finder: interviews.finder },
      settle: interviews.settleNow(),
    } satisfies InterviewContext,
  });
  const compiled = new CompiledExecutor(schema, 1, limits.compiledQueriesMax);
  const executors: Record<string, (args: ExecutionArgs) => Promise<ExecutionResult>> = {
    'graphql-js': async (a) => execute(a),
    'graphql-jit (gateway executor)': compiled.execute,
  };

  const answers = await Promise.all(
    Object.values(executors).map(async (run) => {
      await run(args());
      return JSON.stringify(await run(args()));
    }),
  );
  assert.ok(!answers[0]!.includes('"errors"'), answers[0]);
  assert.equal(answers[1], answers[0], 'both executors give the same answer');

  const measured: Record<string, { wall: number[]; cpu: number[] }> = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, run] of Object.entries(executors)) {
      const startedCpu = process.cpuUsage();
      const startedAt = performance.now();
      let started = 0;
      const lane = async () => {
        while (started < executions) {
          started += 1;
          await run(args());
        }
      };
      await Promise.all(Array.from({ length: concurrency }, lane));
      const wall = ((performance.now() - startedAt) * 1000) / executions;
      const used = process.cpuUsage(startedCpu);
      const cpu = (used.user + used.system) / executions;
      (measured[name] ??= { wall: [], cpu: [] }).wall.push(wall);
      measured[name].cpu.push(cpu);
    }
  }
  const compilations: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const fresh = parse(EVENTS_BY_ID);
    const startedAt = performance.now();
    compileQuery(schema, fresh, 'EventsById');
    compilations.push((performance.now() - startedAt) * 1000);
  }
  console.log(
    `${dialect}, ${ROUNDS} rounds of ${executions} executions of EVENTS_BY_ID, ${concurrency} at once`,
  );
  console.log(`compiling it (once per document): median ${median(compilations).toFixed(0)} µs`);
  for (const [name, { wall, cpu }] of Object.entries(measured)) {
    console.log(
      `${name.padEnd(32)} µs/execution: wall median ${median(wall).toFixed(1)} ` +
        `(min ${Math.min(...wall).toFixed(1)}), CPU median ${median(cpu).toFixed(1)} ` +
        `(min ${Math.min(...cpu).toFixed(1)})`,
    );
  }
} finally {
  await database.dispose();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
