import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Machine } from './machine.js';
import type { BenchOptions } from './options.js';
import { formatCount, type SummaryRow } from './summary.js';
import { formatJobSearch, type JobSearchStageResult } from './job-search-stage.js';
import type { WebhookStageResult } from './webhook-stage.js';

/** Bump when the shape of results.json changes (bench/results.schema.json follows it). */
export const RESULTS_SCHEMA_VERSION = 8;
/** P4: the most resident memory any one service process may use under any scenario. */
export const PEAK_RSS_LIMIT_MIB = 250;

export interface BenchResults {
  schemaVersion: typeof RESULTS_SCHEMA_VERSION;
  generatedAt: string;
  options: Omit<BenchOptions, 'resultsPath'>;
  machine: Machine;
  /** Events inserted before each stage (both employers) and how long it took, ANALYZE included. */
  seeding: Array<{ stage: string; eventsInserted: number; seconds: number }>;
  /** What each service process logged at LOG_LEVEL=warn (warnings and errors), per stage. */
  serviceLogs: Array<{ configuration: string; stage: string; lines: number; first: string[] }>;
  rows: SummaryRow[];
  p4: { limitMiB: number; peakRssMiB: number | null; met: boolean | null };
  /** The webhook stage (bench/webhook-stage.ts); null when --only left it out. */
  webhooks: WebhookStageResult | null;
  /** The job search stage (bench/job-search-stage.ts); null when --only left it out. */
  jobSearch: JobSearchStageResult | null;
  /** Scenarios that could not be measured somewhere, and why. */
  problems: string[];
}

export function buildResults(input: {
  options: BenchOptions;
  machine: Machine;
  seeding: BenchResults['seeding'];
  serviceLogs: BenchResults['serviceLogs'];
  rows: SummaryRow[];
  /** The highest VmHWM of any service process, in bytes, read before each was stopped. */
  highWaterMarkBytes: number;
  webhooks: WebhookStageResult | null;
  jobSearch: JobSearchStageResult | null;
}): BenchResults {
  const { resultsPath: _resultsPath, ...options } = input.options;
  const sampled = input.rows.map((row) => row.peakRssMiB ?? 0);
  const peak = Math.max(input.highWaterMarkBytes / 1024 / 1024, ...sampled);
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    generatedAt: new Date().toISOString(),
    options,
    machine: input.machine,
    seeding: input.seeding,
    serviceLogs: input.serviceLogs,
    rows: input.rows,
    p4: {
      limitMiB: PEAK_RSS_LIMIT_MIB,
      peakRssMiB: peak > 0 ? Math.round(peak * 10) / 10 : null,
      met: peak > 0 ? peak <= PEAK_RSS_LIMIT_MIB : null,
    },
    webhooks: input.webhooks,
    jobSearch: input.jobSearch,
    problems: [
      ...input.rows.flatMap((row) =>
        row.problem
          ? [`${row.scenario} on ${row.target.label} (${row.stage}): ${row.problem}`]
          : [],
      ),
      ...webhookProblems(input.webhooks),
    ],
  };
}

export function writeResults(path: string, results: BenchResults): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}

/** The table's columns; figures are right-aligned. */
const COLUMNS: ReadonlyArray<{ title: string; figure?: true }> = [
  { title: 'scenario' },
  { title: 'events' },
  { title: 'db' },
  { title: 'workers' },
  { title: 'req/s', figure: true },
  { title: 'items/s', figure: true },
  { title: 'p50 ms', figure: true },
  { title: 'p99 ms', figure: true },
  { title: 'errors', figure: true },
  { title: 'peak RSS MiB', figure: true },
  { title: 'SQL/req', figure: true },
  { title: 'CPU µs/req', figure: true },
  { title: 'vs' },
  { title: 'ratio', figure: true },
  { title: 'target' },
  { title: 'met' },
  { title: 'CPU ratio', figure: true },
];

/** The report for a terminal: one table, then P4 and the machine. */
export function formatReport(results: BenchResults): string {
  const database = results.options.db;
  const cells = results.rows.map((row) => tableRow(row, database));
  const widths = COLUMNS.map((column, index) =>
    Math.max(column.title.length, ...cells.map((row) => row[index]!.length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, index) =>
        COLUMNS[index]!.figure ? value.padStart(widths[index]!) : value.padEnd(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  const { p4, machine } = results;
  return [
    ...(cells.length
      ? [
          line(COLUMNS.map((column) => column.title)),
          line(widths.map((width) => '-'.repeat(width))),
          ...cells.map(line),
          '',
        ]
      : []),
    ...(results.webhooks ? [...formatWebhooks(results.webhooks, database), ''] : []),
    ...(results.jobSearch ? [...formatJobSearch(results.jobSearch, database), ''] : []),
    `P4 peak RSS of one service process over every scenario: ${p4.peakRssMiB ?? 'n/a'} MiB ` +
      `(target <= ${p4.limitMiB} MiB): ${p4.met === null ? 'n/a' : p4.met ? 'met' : 'NOT met'}`,
    `machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ` +
      `Node ${machine.node}, ${machine.platform}, ${machine.database}`,
    `${results.options.rounds} interleaved round(s), medians; ${results.options.connections} connections ` +
      `(${results.options.seconds} s) or 1 connection (${results.options.serialSeconds} s) per measurement ` +
      'unless the scenario names its own',
    ...results.serviceLogs
      .filter((log) => log.lines > 0)
      .map(
        (log) =>
          `service (${log.configuration === '1' ? 'WORKERS=1' : log.configuration}, ${log.stage} stage) ` +
          `logged ${log.lines} warning/error line(s); first: ${logLineGist(log.first[0] ?? '')}`,
      ),
    ...results.rows.flatMap(driftLine),
    ...results.problems.map((problem) => `NOT MEASURED: ${problem}`),
  ].join('\n');
}

/**
 * Below this share of its first round's req/s, a row's last round is reported: the target slows
 * as the data it writes grows, which the median of the rounds hides (Job Sync's writes once
 * fell from 33 to 7 requests a second over three rounds and reported 23).
 */
const DRIFT_FLOOR = 0.6;

export function driftLine(row: SummaryRow): string[] {
  const rounds = row.requestsPerSecondByRound;
  const first = rounds[0];
  const last = rounds.at(-1);
  if (rounds.length < 2 || !first || last === undefined || last >= DRIFT_FLOOR * first) return [];
  return [
    `SLOWING: ${row.scenario} on ${row.target.label} (${row.stage}): req/s by round ` +
      `${rounds.join(', ')}; the last is below ${DRIFT_FLOOR} of the first`,
  ];
}

/** Why the webhook stage's figures cannot be trusted: a delivery unverified, lost or unsent. */
function webhookProblems(webhooks: WebhookStageResult | null): string[] {
  if (!webhooks || webhooks.allVerified) return [];
  const { written, delivered, accepted, unverified, duplicates } = webhooks.deliveries;
  return [
    `${webhooks.scenario}: ${written} deliveries written, ${delivered} delivered, ` +
      `${accepted} accepted (${duplicates} duplicates), ${unverified} unverified`,
  ];
}

/** The webhook stage in a few lines: the goal first, then what the figures are made of. */
function formatWebhooks(w: WebhookStageResult, database: string): string[] {
  const lag = w.commitToReceiptMs;
  const api = w.api;
  return [
    `${w.scenario} (${database}, default (${w.workers})):`,
    `  ${w.deliveriesPerSecond.toFixed(0)} deliveries/s, commit to receiver 2xx p50 ${lag.p50} ms, ` +
      `p95 ${lag.p95} ms, p99 ${lag.p99} ms, max ${lag.max} ms ` +
      `(goal >= ${w.goal.deliveriesPerSecond}/s and p95 < ${w.goal.p95Ms} ms): ` +
      `${w.met ? 'met' : 'NOT met'}`,
    `  API meanwhile: createVirtualInterviewEvent ${api.requestsPerSecond.toFixed(0)} req/s ` +
      `(asked ${w.offeredChangesPerSecond}/s), p50 ${api.latencyMs.p50} ms, p95 ${api.latencyMs.p95} ms, ` +
      `p99 ${api.latencyMs.p99} ms, ${api.errors} errors; ${w.endpoints} endpoint(s), ` +
      `${w.seconds} s of load`,
    w.warmup
      ? `  before it, ${w.warmup.seconds} s of the same load warmed the fresh service up (left out ` +
        `of the figures above): commit to 2xx p50 ${w.warmup.commitToReceiptMs.p50} ms, ` +
        `p95 ${w.warmup.commitToReceiptMs.p95} ms, max ${w.warmup.commitToReceiptMs.max} ms; ` +
        `its queue was empty ${w.warmup.drainSeconds} s after it`
      : '  no warm-up: the measured load began on the freshly started service',
    `  deliveries: ${w.deliveries.written} written, ${w.deliveries.delivered} delivered, ` +
      `${w.deliveries.accepted} accepted and verified (${w.deliveries.duplicates} duplicates), ` +
      `${w.deliveries.unverified} unverified: ${w.allVerified ? 'every one delivered once and verified' : 'NOT every one delivered and verified'}; ` +
      `outbox depth ${w.outbox.depthAtLoadEnd} when the load stopped, ` +
      `${w.outbox.depthAfterDrain} after ${w.outbox.drainSeconds} s`,
    `  load average ${w.loadAverage.atStart.join(' ')} at the start, ${w.loadAverage.atEnd.join(' ')} at the end`,
  ];
}

function tableRow(row: SummaryRow, database: string): string[] {
  const comparison = row.comparison;
  const measured = row.rounds > 0;
  return [
    row.scenario,
    row.target.kind === 'peer' ? '' : formatCount(row.events),
    database,
    row.target.kind === 'peer'
      ? `peer ${row.target.label}`
      : row.target.label === 'default'
        ? `default (${row.workers ?? '?'})`
        : `WORKERS=${row.target.label}`,
    measured ? row.requestsPerSecond.toFixed(0) : '-',
    measured && row.items ? `${row.items.perSecond} ${row.items.name}` : '',
    measured ? row.latencyMs.p50.toFixed(2) : '-',
    measured ? row.latencyMs.p99.toFixed(2) : '-',
    measured ? String(row.errors.total) + (row.bodiesExhausted ? ' (pool ran out)' : '') : 'failed',
    row.peakRssMiB === null ? '' : row.peakRssMiB.toFixed(0),
    row.target.kind === 'peer' || !row.graphql
      ? ''
      : row.statementsPerRequest === null
        ? 'n/a'
        : row.statementsPerRequest.toFixed(1),
    row.cpuMicrosPerResponse === null ? '' : String(row.cpuMicrosPerResponse),
    comparison?.against ?? '',
    comparison?.ratio === null || comparison?.ratio === undefined
      ? ''
      : comparison.ratio.toFixed(2),
    comparison?.target ? `${comparison.target.operator} ${comparison.target.value}` : '',
    comparison?.met === null || comparison?.met === undefined ? '' : comparison.met ? 'yes' : 'NO',
    comparison?.cpuRatio === null || comparison?.cpuRatio === undefined
      ? ''
      : comparison.cpuRatio.toFixed(2),
  ];
}

/** A pino line as level, message and error message; any other line as it is (shortened). */
function logLineGist(line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    const level = entry.level === undefined ? '' : entry.level >= 50 ? 'error ' : 'warning ';
    return `${level}"${entry.msg ?? ''}"${entry.err?.message ? `: ${entry.err.message}` : ''}`;
  } catch {
    return line.slice(0, 300);
  }
}
