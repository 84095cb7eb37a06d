/**
 * The load generator, a process of its own so that the harness and the load share no event
 * loop: reads jobs (bench/load-protocol.ts) as JSON lines on stdin, runs each with autocannon
 * and prints its result as one JSON line on stdout. Prints `ready` when it can take jobs.
 *
 *   echo '{"id":1,"url":"http://127.0.0.1:3000/healthz","method":"GET","headers":{},
 *          "connections":50,"seconds":5,"graphql":false}' \
 *     | node --import tsx bench/load-driver.ts
 */
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import type { LoadFailure, LoadJob, LoadResult } from './load-protocol.js';

async function main(): Promise<void> {
  process.stdout.write('ready\n');
  // Jobs run one at a time, in the order they arrive.
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const job = JSON.parse(line) as LoadJob;
    let answer: LoadResult | LoadFailure;
    try {
      answer = await measure(job);
    } catch (error) {
      answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
}

function measure(job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  let bodiesExhausted = false;
  let instance: autocannon.Instance | undefined;
  let nextBody = 0;
  const bodies = job.bodies;
  const verifyBody = verifier(job);
  const options: autocannon.Options = {
    url: job.url,
    method: job.method,
    headers: job.headers,
    body: job.body,
    connections: job.connections,
    duration: job.seconds,
    ...(job.rate !== undefined && { overallRate: job.rate }),
    // autocannon ends a run at its first sample after the duration: sample often, end on time.
    sampleInt: 100,
    timeout: 30,
    ...(verifyBody && { verifyBody }),
    ...(bodies && {
      requests: [
        {
          setupRequest: (request) => {
            const body = bodies[nextBody++];
            if (body === undefined) {
              bodiesExhausted = true;
              instance?.stop();
              return request;
            }
            return { ...request, body };
          },
        },
      ],
    }),
  };
  return new Promise((resolve, reject) => {
    instance = autocannon(options, (error: unknown, result: autocannon.Result) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(summarize(job, result, { latencies, non2xx, bodiesExhausted }));
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      // After the bodies ran out the last one is sent again: those answers are not counted.
      if (bodiesExhausted) return;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else non2xx++;
    });
  });
}

function summarize(
  job: LoadJob,
  result: autocannon.Result,
  counted: { latencies: number[]; non2xx: number; bodiesExhausted: boolean },
): LoadResult {
  const { latencies, non2xx, bodiesExhausted } = counted;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [
      code,
      Number(stats.count),
    ]),
  );
  const responses = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  latencies.sort((a, b) => a - b);
  return {
    id: job.id,
    requestsPerSecond: result.duration > 0 ? latencies.length / result.duration : 0,
    responses,
    seconds: result.duration,
    latency: {
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      p99: percentile(latencies, 0.99),
    },
    non2xx,
    // autocannon counts timeouts among the errors.
    socketErrors: result.errors,
    graphqlErrors: job.graphql ? result.mismatches : 0,
    unexpectedBodies: job.bodyMustInclude === undefined ? 0 : result.mismatches,
    statusCodes,
    bodiesExhausted,
  };
}

/** What makes an answer's body wrong: GraphQL errors, or the lack of the text it must hold. */
function verifier(job: LoadJob): ((body: unknown) => boolean) | undefined {
  const { bodyMustInclude: text } = job;
  if (job.graphql && text !== undefined) {
    throw new Error('a job checks GraphQL errors or a text, not both');
  }
  if (job.graphql) return (body) => !String(body).includes('"errors"');
  if (text !== undefined) return (body) => String(body).includes(text);
  return undefined;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (!sorted.length) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)]! * 1000) / 1000;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
