import type { LoadDriver } from './driver-client.js';
import type { LoadResult } from './load-protocol.js';
import type { BenchOptions } from './options.js';
import { probe, type ProbeOutcome } from './probe.js';
import { CpuMeter } from './cpu-time.js';
import { RssSampler } from './rss-sampler.js';
import type { Scenario, ScenarioFixtures, Stage, StageFacts } from './scenarios/index.js';
import { targetsOf, type Target } from './targets.js';

/**
 * Single-use pools (refresh tokens) hold this many per second of measurement in the first round,
 * and in later rounds at least three times what the target served in the round before. A pool
 * that runs out ends its round early, which the table shows.
 */
const POOL_PER_SECOND = 1000;
const POOL_MARGIN = 3;
/** Load before the first round's measurement of a full run. */
const WARMUP_SECONDS = 0.5;
const QUICK_WARMUP_SECONDS = 0.2;

/** Everything measured of one scenario on one target at one stage. */
export interface Measured {
  scenario: Scenario;
  stage: Stage;
  target: Target;
  probe: ProbeOutcome;
  rounds: MeasuredRound[];
}

export interface MeasuredRound {
  result: LoadResult;
  /** Service only: the largest resident memory of one of its processes during the round. */
  peakRssBytes?: number;
  /** Service only: processes serving requests (cluster workers, or the one process). */
  workers?: number;
  /**
   * CPU time the target's processes used per response, in microseconds (the service's primary
   * and workers, or the peer's process; not the database server's).
   */
  cpuMicrosPerResponse?: number;
}

/**
 * Measures the scenarios of one stage: first a probe of each scenario on each target, then
 * `rounds` interleaved rounds (in each round every scenario on every target, a service scenario's
 * configurations next to each other and next to its peer), so that slow drifts of a shared
 * machine touch every target alike.
 */
export async function measureStage(input: {
  stage: Stage;
  scenarios: readonly Scenario[];
  targets: readonly Target[];
  facts: StageFacts;
  fixtures: ScenarioFixtures;
  driver: LoadDriver;
  options: BenchOptions;
  metricsToken: string;
  log: (line: string) => void;
}): Promise<Measured[]> {
  const { stage, facts, fixtures, options } = input;
  const measured: Measured[] = [];
  for (const scenario of input.scenarios) {
    for (const target of targetsOf(scenario, input.targets)) {
      const outcome = await probe({
        scenario,
        target,
        stage,
        facts,
        fixtures,
        metricsToken: input.metricsToken,
      });
      if (outcome.problem) input.log(`! ${scenario.name} on ${target.label}: ${outcome.problem}`);
      measured.push({ scenario, stage, target, probe: outcome, rounds: [] });
    }
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const entry of measured) {
      if (entry.probe.problem) continue;
      input.log(
        `round ${round}/${options.rounds} ${stage}: ${entry.scenario.name} on ${entry.target.label}`,
      );
      entry.rounds.push(await measureOnce(entry, round, input));
    }
  }
  return measured;
}

function poolSize(entry: Measured, seconds: number): number {
  const previous = entry.rounds.at(-1)?.result.requestsPerSecond ?? 0;
  const perSecond = Math.max(POOL_PER_SECOND, POOL_MARGIN * previous);
  return Math.ceil(seconds * Math.min(perSecond, entry.scenario.maxBodiesPerSecond ?? Infinity));
}

async function measureOnce(
  entry: Measured,
  round: number,
  input: {
    driver: LoadDriver;
    options: BenchOptions;
    facts: StageFacts;
    fixtures: ScenarioFixtures;
  },
): Promise<MeasuredRound> {
  const { scenario, target, stage } = entry;
  const { options } = input;
  const seconds = Math.max(
    scenario.serial ? options.serialSeconds : options.seconds,
    scenario.minSeconds ?? 0,
  );
  const load = await scenario.load({
    fixtures: input.fixtures,
    tokens: target.kind === 'service' ? target.tokens : undefined,
    stage,
    facts: input.facts,
    requests: poolSize(entry, seconds),
  });
  const job = {
    url: `${target.url}${load.path}`,
    method: load.method,
    headers: load.headers,
    ...(load.body !== undefined && { body: load.body }),
    ...(load.bodies && { bodies: load.bodies }),
    ...(load.bodyMustInclude !== undefined && { bodyMustInclude: load.bodyMustInclude }),
    connections: scenario.serial
      ? 1
      : Math.min(options.connections, scenario.maxConnections ?? Infinity),
    graphql: scenario.graphql,
  };
  // Unrecorded load first (JIT, caches, connection pools), not for single-use bodies; a short
  // one in --quick runs too, whose measurements may be shorter than a cold worker's first
  // answers (a tiny run once measured a freshly started cluster answering nothing in 0.3 s).
  if (round === 1 && !load.bodies) {
    await input.driver.run({
      ...job,
      seconds: options.quick ? QUICK_WARMUP_SECONDS : WARMUP_SECONDS,
    });
  }
  const sampler =
    target.kind === 'service' ? new RssSampler(() => target.service.processIds()) : undefined;
  const cpu = new CpuMeter(() =>
    target.kind === 'service' ? target.service.processIds() : [target.peer.pid],
  );
  const result = await input.driver.run({ ...job, seconds });
  const cpuSeconds = cpu.stop();
  const cpuMicrosPerResponse =
    result.responses > 0 ? (cpuSeconds * 1e6) / result.responses : undefined;
  if (!sampler || target.kind !== 'service') return { result, cpuMicrosPerResponse };
  return {
    result,
    peakRssBytes: sampler.stop(),
    workers: target.service.servingProcesses(),
    cpuMicrosPerResponse,
  };
}
