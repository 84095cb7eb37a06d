import type { Measured } from './rounds.js';
import type { Stage } from './scenarios/index.js';

/** One line of the report: a scenario on one target at one stage, over its rounds. */
export interface SummaryRow {
  scenario: string;
  stage: Stage;
  /** The measured employer's events at this stage. */
  events: number;
  target: { kind: 'service' | 'peer'; label: string };
  /** Processes serving requests (cluster workers, or 1); null for peers. */
  workers: number | null;
  rounds: number;
  /** Medians over the rounds. */
  requestsPerSecond: number;
  /** Each round's req/s, in the order measured: a slowdown the median hides shows here. */
  requestsPerSecondByRound: number[];
  latencyMs: { p50: number; p99: number };
  /** What each request carries many of (postings), and their rate: req/s times perRequest. */
  items: { name: string; perRequest: number; perSecond: number } | null;
  /** graphql: answers with GraphQL errors; body: answers without the text the scenario expects. */
  errors: { non2xx: number; socket: number; graphql: number; body: number; total: number };
  peakRssMiB: number | null;
  /** Median CPU time of the target's processes per response, in microseconds. */
  cpuMicrosPerResponse: number | null;
  /** GraphQL scenarios on the service: statements per request from /metrics (null: no /metrics). */
  statementsPerRequest: number | null;
  graphql: boolean;
  comparison: Comparison | null;
  /** Why the scenario could not be measured on this target. */
  problem: string | null;
  /** The single-use bodies ran out during a round (the round was shorter). */
  bodiesExhausted: boolean;
}

export interface Comparison {
  /** What the ratio is taken against: a peer, or this scenario's p50 at the small stage. */
  against: string;
  /** req/s ratio against a peer; p50 growth against the small stage. */
  ratio: number | null;
  /**
   * Against a peer: the peer's CPU per response over the service's (above 1, the service spends
   * less CPU on a request than the peer does); null otherwise.
   */
  cpuRatio: number | null;
  target: { operator: '>=' | '<='; value: number } | null;
  met: boolean | null;
}

const MIB = 1024 * 1024;

export function summarize(
  measured: readonly Measured[],
  events: Record<Stage, number>,
): SummaryRow[] {
  const rows = measured.map((entry) => baseRow(entry, events[entry.stage]));
  for (const [index, entry] of measured.entries()) {
    rows[index]!.comparison = compare(entry, rows[index]!, rows);
  }
  return rows;
}

function baseRow(entry: Measured, events: number): SummaryRow {
  const results = entry.rounds.map((round) => round.result);
  const sum = (pick: (result: (typeof results)[number]) => number) =>
    results.reduce((total, result) => total + pick(result), 0);
  const errors = {
    non2xx: sum((result) => result.non2xx),
    socket: sum((result) => result.socketErrors),
    graphql: sum((result) => result.graphqlErrors),
    body: sum((result) => result.unexpectedBodies),
  };
  const peaks = entry.rounds.flatMap((round) => (round.peakRssBytes ? [round.peakRssBytes] : []));
  const cpu = entry.rounds.flatMap((round) =>
    round.cpuMicrosPerResponse === undefined ? [] : [round.cpuMicrosPerResponse],
  );
  const requestsPerSecond = round1(median(results.map((result) => result.requestsPerSecond)));
  const { items } = entry.scenario;
  return {
    scenario: entry.scenario.name,
    stage: entry.stage,
    events,
    target: { kind: entry.target.kind, label: entry.target.label },
    workers:
      entry.target.kind === 'service'
        ? Math.max(0, ...entry.rounds.map((round) => round.workers ?? 0)) || null
        : null,
    rounds: results.length,
    requestsPerSecond,
    requestsPerSecondByRound: results.map((result) => round1(result.requestsPerSecond)),
    latencyMs: {
      p50: round3(median(results.map((result) => result.latency.p50))),
      p99: round3(median(results.map((result) => result.latency.p99))),
    },
    items: items ? { ...items, perSecond: Math.round(requestsPerSecond * items.perRequest) } : null,
    errors: {
      ...errors,
      total: errors.non2xx + errors.socket + errors.graphql + errors.body,
    },
    peakRssMiB: peaks.length ? round1(Math.max(...peaks) / MIB) : null,
    cpuMicrosPerResponse: cpu.length ? Math.round(median(cpu)) : null,
    statementsPerRequest: entry.probe.statementsPerRequest ?? null,
    graphql: entry.scenario.graphql,
    comparison: null,
    problem: entry.probe.problem ?? null,
    bodiesExhausted: results.some((result) => result.bodiesExhausted),
  };
}

function compare(entry: Measured, row: SummaryRow, rows: readonly SummaryRow[]): Comparison | null {
  const comparison = entry.scenario.comparison;
  if (!comparison || row.target.kind !== 'service') return null;
  if (comparison.kind === 'peer') {
    const peer = rows.find(
      (other) => other.scenario === comparison.scenario && other.stage === row.stage,
    );
    const ratio =
      peer?.requestsPerSecond && row.rounds ? row.requestsPerSecond / peer.requestsPerSecond : null;
    const cpuRatio =
      peer?.cpuMicrosPerResponse && row.cpuMicrosPerResponse
        ? round3(peer.cpuMicrosPerResponse / row.cpuMicrosPerResponse)
        : null;
    return {
      ...judged(peer?.target.label ?? comparison.scenario, ratio, comparison.min, '>='),
      cpuRatio,
    };
  }
  if (row.stage !== 'large') return null;
  const small = rows.find(
    (other) =>
      other.scenario === row.scenario &&
      other.stage === 'small' &&
      other.target.label === row.target.label,
  );
  const ratio = small?.latencyMs.p50 && row.rounds ? row.latencyMs.p50 / small.latencyMs.p50 : null;
  return {
    ...judged(`p50 at ${formatCount(small?.events ?? 0)}`, ratio, comparison.max, '<='),
    cpuRatio: null,
  };
}

function judged(
  against: string,
  ratio: number | null,
  value: number | undefined,
  operator: '>=' | '<=',
): Omit<Comparison, 'cpuRatio'> {
  const rounded = ratio === null ? null : round3(ratio);
  return {
    against,
    ratio: rounded,
    target: value === undefined ? null : { operator, value },
    met:
      value === undefined || rounded === null
        ? null
        : operator === '>='
          ? rounded >= value
          : rounded <= value,
  };
}

/** 10000 → 10k, 1000000 → 1M. */
export function formatCount(count: number): string {
  if (count >= 1_000_000 && count % 100_000 === 0) return `${count / 1_000_000}M`;
  if (count >= 1000 && count % 100 === 0) return `${count / 1000}k`;
  return String(count);
}

export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
