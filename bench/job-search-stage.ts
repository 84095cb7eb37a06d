import { Agent, request } from 'node:http';
import { createCliServices } from '../src/cli/services.js';
import { composeJobSearch } from '../src/job-search/compose.js';
import { issueAuthorizationCode } from './accounts.js';
import { analyzeTables } from './seed-events.js';
import { CpuMeter } from './cpu-time.js';
import { busiestWorkerSlot } from './processes.js';
import { startServices } from './service.js';
import type { StageInput } from './stage-input.js';
import { obtainTokens } from './tokens.js';

/** What the table shows and --only matches (`--only jobSearch`). */
export const JOB_SEARCH_STAGE_NAME =
  'J1 jobSearch: text + radius, one connection, small vs large index';

/** Issue 23: p50 at the large index at most this many times p50 at the small one. */
export const JOB_SEARCH_GOAL = { largeToSmallP50: 1.5 } as const;

/**
 * The searches measured, in turn: common and rarer words around big and middling cities, in
 * and outside the United States, so that a page meets many matches near the place (the case
 * that must not grow with the index) as well as few.
 */
export const JOB_SEARCHES: ReadonlyArray<{ what: string; where: string; radius: number }> = [
  { what: 'software engineer', where: 'Austin, TX', radius: 25 },
  { what: 'engineer', where: 'New York, NY', radius: 25 },
  { what: 'nurse', where: 'London, United Kingdom', radius: 25 },
  { what: 'driver', where: 'Berlin', radius: 25 },
  { what: 'data analyst', where: 'Chicago, IL', radius: 50 },
  { what: 'teacher', where: 'Mumbai', radius: 25 },
  { what: 'manager', where: '78701', radius: 50 },
  { what: 'senior developer', where: 'Toronto, Canada', radius: 25 },
];

/** Results per page, as a search page shows them. */
const PAGE_SIZE = 20;
const QUERY = `query Search($what: String, $where: String, $radius: Int, $limit: Int) {
  jobSearch(what: $what, location: { where: $where, radius: $radius, radiusUnit: MILES },
            limit: $limit, sort: RELEVANCE) {
    pageInfo { nextCursor }
    results { trackingKey job { key title datePublished location { city formatted { short } }
      employer { name } compensation { baseSalary { unitOfWork range { ... on Range { min max } } } } } }
  }
}`;

export interface JobSearchIndexStage {
  /** Postings on the index. */
  postings: number;
  /** Postings seeded before this stage, and how fast (ANALYZE not included). */
  seeded: { postings: number; seconds: number; perSecond: number };
  requests: number;
  /** Mean results per page: the searches do find postings. */
  meanResults: number;
  latencyMs: { p50: number; p95: number; p99: number };
  /**
   * Each search's own p50, in JOB_SEARCHES' order: the stage's p50 falls between two of them,
   * so these show which searches set it.
   */
  searchP50Ms: number[];
  /** The cluster slot of the worker that served the stage's connection (slot 0 also sweeps). */
  servedBySlot: number | null;
}

export interface JobSearchStageResult {
  scenario: string;
  pageSize: number;
  searches: typeof JOB_SEARCHES;
  small: JobSearchIndexStage;
  large: JobSearchIndexStage;
  largeToSmallP50: number;
  goal: { largeToSmallP50: number };
  met: boolean;
}

export function jobSearchStageSelected(only: readonly string[]): boolean {
  const name = JOB_SEARCH_STAGE_NAME.toLowerCase();
  return !only.length || only.some((part) => name.includes(part.toLowerCase()));
}

/**
 * The job search stage: postings seeded into the index (`jobs seed`'s generator), the service
 * (default configuration) started on it, and jobSearch asked one request at a time, the searches
 * in turn; then the index grown to the large size, the service restarted and the same measured.
 */
export async function measureJobSearchStage(input: StageInput): Promise<JobSearchStageResult> {
  const { options, shared, accounts, log } = input;
  await createCliServices(shared).apiAccess.setEnabled(
    (await input.db('apps').where({ id: accounts.app.id }).first())!,
    'job-search',
    true,
  );
  const jobSearch = composeJobSearch(shared);
  let seededSoFar = 0;
  const grow = async (to: number) => {
    const count = to - seededSoFar;
    const started = performance.now();
    await jobSearch.seed(
      {
        count,
        batchSize: 2000,
        appId: accounts.app.id,
        employerId: accounts.employers.measured,
        spreadDays: 30,
        now: Date.now(),
        seed: to,
      },
      // Straight into the index: 1M postings through Job Sync would take the bench too long.
      jobSearch.indexSink,
    );
    const seconds = (performance.now() - started) / 1000;
    await analyzeTables(input.db, options.db);
    seededSoFar = to;
    log(`${JOB_SEARCH_STAGE_NAME}: seeded ${count} postings in ${seconds.toFixed(1)} s`);
    return { postings: count, seconds: round1(seconds), perSecond: Math.round(count / seconds) };
  };
  const measureAt = async (stage: string, seeded: JobSearchIndexStage['seeded']) => {
    const [service] = await startServices({
      repository: input.repository,
      configurations: [{ label: 'default', workers: options.workers }],
      ...input.service,
      profileDirectory: options.profileDirectory,
      log,
    });
    const stop = async () => {
      input.beforeStop(service!, stage);
      await service!.stop();
    };
    input.cleanup.add(stop);
    const code = await issueAuthorizationCode(shared, accounts);
    const { tokens } = await obtainTokens(service!.url, accounts, code);
    const cpu = new CpuMeter(() => service!.processIds());
    const measured = await timeSearches(service!.url, tokens.employer, {
      warmup: options.jobSearchWarmup,
      requests: options.jobSearchRequests,
    });
    const servedBySlot = busiestWorkerSlot(cpu.stopEach());
    await input.cleanup.runOne(stop);
    log(
      `${JOB_SEARCH_STAGE_NAME}: ${seededSoFar} postings, p50 ${measured.latencyMs.p50} ms, ` +
        `p95 ${measured.latencyMs.p95} ms, ${measured.meanResults} results a page, ` +
        `per search ${measured.searchP50Ms.join(' / ')} ms, worker slot ${servedBySlot ?? '-'}`,
    );
    return { postings: seededSoFar, seeded, ...measured, servedBySlot };
  };
  const small = await measureAt('jobSearch small', await grow(options.jobSearchSmall));
  const large = await measureAt('jobSearch large', await grow(options.jobSearchLarge));
  const ratio = Math.round((large.latencyMs.p50 / small.latencyMs.p50) * 100) / 100;
  return {
    scenario: JOB_SEARCH_STAGE_NAME,
    pageSize: PAGE_SIZE,
    searches: JOB_SEARCHES,
    small,
    large,
    largeToSmallP50: ratio,
    goal: { ...JOB_SEARCH_GOAL },
    met: ratio <= JOB_SEARCH_GOAL.largeToSmallP50,
  };
}

/**
 * `requests` searches one at a time on one keep-alive connection, after `warmup` others (the
 * places' first load, caches, compilation); latencies in
 * milliseconds. node:http rather than fetch: fetch spent about a millisecond of its own on each
 * request, which would hide the service's time in the client's.
 */
async function timeSearches(
  url: string,
  token: string,
  { warmup, requests }: { warmup: number; requests: number },
) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const perSearch: number[][] = JOB_SEARCHES.map(() => []);
  let results = 0;
  try {
    for (let index = 0; index < warmup + requests; index++) {
      const search = JOB_SEARCHES[index % JOB_SEARCHES.length]!;
      const body = JSON.stringify({ query: QUERY, variables: { ...search, limit: PAGE_SIZE } });
      const started = performance.now();
      const response = await postJson(`${url}/graphql`, agent, token, body);
      const elapsed = performance.now() - started;
      const answer = JSON.parse(response.body) as {
        data?: { jobSearch: { results: unknown[] } | null };
        errors?: Array<{ message: string }>;
      };
      if (response.status !== 200 || answer.errors || !answer.data?.jobSearch) {
        throw new Error(`jobSearch answered ${response.status}: ${JSON.stringify(answer.errors)}`);
      }
      if (index < warmup) continue;
      latencies.push(elapsed);
      perSearch[index % JOB_SEARCHES.length]!.push(elapsed);
      results += answer.data.jobSearch.results.length;
    }
  } finally {
    agent.destroy();
  }
  const at = percentileOf(latencies);
  return {
    requests,
    meanResults: round1(results / requests),
    latencyMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99) },
    searchP50Ms: perSearch.map((own) => percentileOf(own)(0.5)),
  };
}

/** One POST of `body` on `agent`'s connection; the status and the whole answer. */
function postJson(
  url: string,
  agent: Agent,
  token: string,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The nearest-rank percentile of `values` (sorted in place), rounded to hundredths. */
function percentileOf(values: number[]): (fraction: number) => number {
  values.sort((a, b) => a - b);
  return (fraction) => round2(values[Math.max(0, Math.ceil(fraction * values.length) - 1)] ?? 0);
}

/** The stage in a few lines for the report. */
export function formatJobSearch(result: JobSearchStageResult, database: string): string[] {
  const line = (label: string, stage: JobSearchIndexStage) =>
    `  ${label} ${stage.postings} postings: p50 ${stage.latencyMs.p50} ms, p95 ${stage.latencyMs.p95} ms, ` +
    `p99 ${stage.latencyMs.p99} ms (${stage.requests} requests, ${stage.meanResults} results a page); ` +
    `seeded ${stage.seeded.postings} at ${stage.seeded.perSecond}/s\n` +
    `    p50 per search ${stage.searchP50Ms.join(' / ')} ms; served by worker slot ${stage.servedBySlot ?? '-'}`;
  return [
    `${result.scenario} (${database}): p50 large/small ${result.largeToSmallP50} ` +
      `(goal <= ${result.goal.largeToSmallP50}): ${result.met ? 'met' : 'NOT met'}`,
    line('small', result.small),
    line('large', result.large),
  ];
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
