import { InvalidArgumentError, Option, program } from 'commander';

export type BenchDatabase = 'sqlite' | 'postgres';

export interface BenchOptions {
  db: BenchDatabase;
  quick: boolean;
  /** WORKERS for the default configuration; undefined leaves the service's own default. */
  workers: number | undefined;
  /** Scenario names (or parts of names) to run; empty runs them all. */
  only: string[];
  rounds: number;
  /** Length of one measurement under load (50 connections). */
  seconds: number;
  /** Length of one measurement of a one-request-at-a-time scenario. */
  serialSeconds: number;
  connections: number;
  /** The measured employer's events at the first stage and after growing. */
  smallEvents: number;
  largeEvents: number;
  /** Another employer's events, present in the same tables. */
  otherEvents: number;
  /** The page that the "deep page" scenarios read (page 1 is the first). */
  deepPage: number;
  /** Where the machine-readable results go. */
  resultsPath: string;
  /** The webhook stage: seconds of load, createVirtualInterviewEvent a second, endpoints. */
  webhookSeconds: number;
  /** Seconds of the same load on the fresh service, drained before the measured load; 0: none. */
  webhookWarmupSeconds: number;
  webhookRate: number;
  webhookEndpoints: number;
  /** The job search stage: postings on the index at its two sizes, and searches timed at each. */
  jobSearchSmall: number;
  jobSearchLarge: number;
  jobSearchRequests: number;
  /** Searches sent before the timed ones at each stage. */
  jobSearchWarmup: number;
  /** A directory for CPU profiles of every service process (`node --cpu-prof`); off if absent. */
  profileDirectory: string | undefined;
}

const FULL = {
  rounds: 3,
  seconds: 4,
  serialSeconds: 2.5,
  smallEvents: 10_000,
  largeEvents: 1_000_000,
  otherEvents: 100_000,
  webhookSeconds: 40,
  webhookWarmupSeconds: 10,
  jobSearchSmall: 10_000,
  jobSearchLarge: 1_000_000,
  jobSearchRequests: 800,
  // A service's p50 still fell by a third over its first two thousand searches.
  jobSearchWarmup: 2000,
};
const QUICK = {
  rounds: 1,
  seconds: 1.5,
  serialSeconds: 1,
  smallEvents: 10_000,
  largeEvents: 50_000,
  otherEvents: 10_000,
  webhookSeconds: 10,
  webhookWarmupSeconds: 3,
  jobSearchSmall: 10_000,
  jobSearchLarge: 50_000,
  jobSearchRequests: 200,
  jobSearchWarmup: 200,
};

/** Parses `npm run bench -- [options]`; `--quick` changes the defaults that are not given. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const command = program
    .name('npm run bench --')
    .description(
      'Benchmarks the service (its own production process, seeded database) side by side with peers.',
    )
    .addOption(
      new Option('--db <engine>', 'database engine')
        .choices(['sqlite', 'postgres'])
        .default('sqlite'),
    )
    .option('--quick', 'one short round on smaller data (under two minutes)', false)
    .option(
      '--workers <n>',
      'WORKERS for the default configuration (a WORKERS=1 run is always measured too)',
      positiveInteger,
    )
    .option('--only <names...>', 'run only the scenarios whose names contain one of these')
    .option('--rounds <n>', 'interleaved rounds (3 full, 1 quick)', positiveInteger)
    .option(
      '--seconds <s>',
      'seconds per measurement under load (4 full, 1.5 quick)',
      positiveNumber,
    )
    .option(
      '--serial-seconds <s>',
      'seconds per one-request-at-a-time measurement (2.5 full, 1 quick)',
      positiveNumber,
    )
    .option('--connections <n>', 'connections under load', positiveInteger, 50)
    .option(
      '--small-events <n>',
      "the measured employer's events at the first stage",
      positiveInteger,
    )
    .option('--large-events <n>', "the measured employer's events after growing", positiveInteger)
    .option('--other-events <n>', "another employer's events", nonNegativeInteger)
    .option('--deep-page <n>', 'the page read by the deep-page scenarios', positiveInteger, 50)
    .option(
      '--webhook-seconds <s>',
      'seconds of API load in the webhook stage (40 full, 10 quick)',
      positiveNumber,
    )
    .option(
      '--webhook-warmup-seconds <s>',
      'seconds of the same load before the measured one, drained first (10 full, 3 quick; 0 none)',
      nonNegativeInteger,
    )
    .option(
      '--webhook-rate <n>',
      'createVirtualInterviewEvent per second in the webhook stage',
      positiveInteger,
      110,
    )
    .option(
      '--webhook-endpoints <n>',
      "the bench app's webhook endpoints (each change is one delivery to each)",
      positiveInteger,
      5,
    )
    .option(
      '--job-search-small <n>',
      'postings on the index at the first job search stage (10k)',
      positiveInteger,
    )
    .option(
      '--job-search-large <n>',
      'postings on the index at the second job search stage (1M full, 50k quick)',
      positiveInteger,
    )
    .option(
      '--job-search-requests <n>',
      'searches timed at each job search stage (800 full, 200 quick)',
      positiveInteger,
    )
    .option(
      '--job-search-warmup <n>',
      'searches sent before the timed ones at each job search stage (2000 full, 200 quick)',
      positiveInteger,
    )
    .option('--results <path>', 'where to write the JSON results', 'bench/results.json')
    .option(
      '--profile <dir>',
      'write a CPU profile of every service process into <dir> (summarise with bench/profile-summary.ts)',
    )
    .allowExcessArguments(false)
    .parse(argv, { from: 'user' });
  const given = command.opts<{
    db: BenchDatabase;
    quick: boolean;
    workers?: number;
    only?: string[];
    rounds?: number;
    seconds?: number;
    serialSeconds?: number;
    connections: number;
    smallEvents?: number;
    largeEvents?: number;
    otherEvents?: number;
    deepPage: number;
    webhookSeconds?: number;
    webhookWarmupSeconds?: number;
    webhookRate: number;
    webhookEndpoints: number;
    results: string;
    profile?: string;
    jobSearchSmall?: number;
    jobSearchLarge?: number;
    jobSearchRequests?: number;
    jobSearchWarmup?: number;
  }>();
  const defaults = given.quick ? QUICK : FULL;
  const options: BenchOptions = {
    db: given.db,
    quick: given.quick,
    workers: given.workers,
    only: given.only ?? [],
    rounds: given.rounds ?? defaults.rounds,
    seconds: given.seconds ?? defaults.seconds,
    serialSeconds: given.serialSeconds ?? defaults.serialSeconds,
    connections: given.connections,
    smallEvents: given.smallEvents ?? defaults.smallEvents,
    largeEvents: given.largeEvents ?? defaults.largeEvents,
    otherEvents: given.otherEvents ?? defaults.otherEvents,
    deepPage: given.deepPage,
    webhookSeconds: given.webhookSeconds ?? defaults.webhookSeconds,
    webhookWarmupSeconds: given.webhookWarmupSeconds ?? defaults.webhookWarmupSeconds,
    webhookRate: given.webhookRate,
    webhookEndpoints: given.webhookEndpoints,
    jobSearchSmall: given.jobSearchSmall ?? defaults.jobSearchSmall,
    jobSearchLarge: given.jobSearchLarge ?? defaults.jobSearchLarge,
    jobSearchRequests: given.jobSearchRequests ?? defaults.jobSearchRequests,
    jobSearchWarmup: given.jobSearchWarmup ?? defaults.jobSearchWarmup,
    resultsPath: given.results,
    profileDirectory: given.profile,
  };
  const inconsistency = inconsistencyOf(options);
  if (inconsistency) command.error(`error: ${inconsistency}`);
  return options;
}

/** The page size of the P3 scenarios. */
export const PAGE_SIZE = 20;

function inconsistencyOf(options: BenchOptions): string | undefined {
  if (options.deepPage < 2) return '--deep-page must be 2 or more';
  const needed = options.deepPage * PAGE_SIZE + 1;
  if (options.smallEvents < needed) {
    return (
      `--small-events ${options.smallEvents} is too few for page ${options.deepPage} of ` +
      `${PAGE_SIZE} with a next page (at least ${needed})`
    );
  }
  if (options.largeEvents < options.smallEvents) {
    return '--large-events must not be below --small-events';
  }
  if (options.jobSearchLarge <= options.jobSearchSmall) {
    return '--job-search-large must be above --job-search-small';
  }
  return undefined;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new InvalidArgumentError('must be a positive integer');
  }
  return number;
}

function nonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) {
    throw new InvalidArgumentError('must be a non-negative integer');
  }
  return number;
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('must be positive');
  return number;
}
