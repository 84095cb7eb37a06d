import assert from 'node:assert/strict';
import { driftLine } from '../../bench/report.js';
import type { SummaryRow } from '../../bench/summary.js';

/** A row of the report with the given req/s per round; the rest as a service row has it. */
function row(byRound: number[]): SummaryRow {
  return {
    scenario: 'Job Sync createSourcedJobPostings',
    stage: 'small',
    events: 10_000,
    target: { kind: 'service', label: 'default' },
    workers: 2,
    rounds: byRound.length,
    requestsPerSecond: [...byRound].sort((a, b) => a - b)[byRound.length >> 1] ?? 0,
    requestsPerSecondByRound: byRound,
    latencyMs: { p50: 100, p99: 300 },
    items: null,
    errors: { non2xx: 0, socket: 0, graphql: 0, body: 0, total: 0 },
    peakRssMiB: 200,
    cpuMicrosPerResponse: 40_000,
    statementsPerRequest: 10,
    graphql: true,
    comparison: null,
    problem: null,
    bodiesExhausted: false,
  };
}

describe('bench report: rounds that slow down', () => {
  it('names a row whose last round fell below 0.6 of its first, which its median hides', () => {
    assert.deepEqual(driftLine(row([33.6, 23, 6.6])), [
      'SLOWING: Job Sync createSourcedJobPostings on default (small): req/s by round ' +
        '33.6, 23, 6.6; the last is below 0.6 of the first',
    ]);
  });

  it('leaves out rows that hold their rate, noise included, and single rounds', () => {
    assert.deepEqual(driftLine(row([35.2, 30.8, 30.9])), []);
    assert.deepEqual(driftLine(row([47.6, 42.3, 35.7])), []);
    assert.deepEqual(driftLine(row([20, 40, 25])), []);
    assert.deepEqual(driftLine(row([12])), []);
    assert.deepEqual(driftLine(row([])), []);
  });
});
