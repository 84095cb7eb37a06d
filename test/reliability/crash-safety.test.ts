import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { halfWrittenRows } from '../support/integrity.js';
import { checkLedger } from '../support/ledger-check.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import {
  RAISED_RATE_LIMITS,
  fixedAddress,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';
import { WriteLedger } from '../support/write-ledger.js';
import { WriteLoad } from '../support/write-load.js';

const ROUNDS = volume('RELIABILITY_KILL_ROUNDS', 3);
/** Operations acknowledged in a round before the kill; the load is in full swing by then. */
const KILL_AFTER = volume('RELIABILITY_KILL_AFTER_OPERATIONS', 120);
const TOKEN_WORKERS = 6;
const INTERVIEW_WORKERS = 6;

/**
 * DESIGN §6: a write acknowledged to a client survives SIGKILL of the process, on both
 * databases, under concurrency. A real service process takes a mixed load (token issuance,
 * events with several interviewers and additions, interview days on the lobby pages) and is
 * killed mid-load; restarted on the same database, it must still have every acknowledged write,
 * whole, and nothing half written. The counts are printed for docs/reliability.md.
 */
describeEachDialect('reliability: SIGKILL under a mixed write load', (database) => {
  it(`keeps every acknowledged write through ${ROUNDS} kills`, async function () {
    this.timeout(180_000);
    const tenant = await createOAuthTenant(database().db, systemClock, 'crash');
    const env = { ...(await fixedAddress()), ...RAISED_RATE_LIMITS };
    const ledger = new WriteLedger();
    let service: ServiceProcess | undefined;
    try {
      for (let round = 1; round <= ROUNDS + 1; round += 1) {
        service = await startServiceProcess(database(), env);
        if (round > 1) {
          const report = await checkLedger(ledger, { url: service.url, db: database().db, tenant });
          console.log(
            `      after kill ${round - 1}: acknowledged ${JSON.stringify(report.acknowledged)}`,
          );
          console.log(
            `      after kill ${round - 1}: found        ${JSON.stringify(report.found)}`,
          );
          assert.deepEqual(report.problems, [], service.output());
          assert.deepEqual(report.found, report.acknowledged);
          assert.deepEqual(await halfWrittenRows(database().db), [], service.output());
        }
        if (round > ROUNDS) break;
        const counts = await loadUntilKilled(service, tenant, ledger);
        console.log(
          `      kill ${round}: ${counts.acknowledged} operations acknowledged in this round, ` +
            `${counts.unanswered} unanswered (in flight at the kill)`,
        );
        service = undefined;
      }
    } finally {
      await service?.stop();
    }
  });
});

/** Runs the load, SIGKILLs the service once KILL_AFTER operations are acknowledged, and waits. */
async function loadUntilKilled(
  service: ServiceProcess,
  tenant: Awaited<ReturnType<typeof createOAuthTenant>>,
  ledger: WriteLedger,
): Promise<WriteLoad['counts']> {
  const load = await WriteLoad.start(service.url, tenant, ledger);
  let killed = false;

  async function issueTokens(): Promise<void> {
    while (!killed) await load.issueToken();
  }
  async function interviewDays(worker: number): Promise<void> {
    // Half the workers run whole interview days, half create events and add to them.
    while (!killed) await load.interviewRound(worker % 2 === 0);
  }
  const workers = [
    ...Array.from({ length: TOKEN_WORKERS }, issueTokens),
    ...Array.from({ length: INTERVIEW_WORKERS }, (_, i) => interviewDays(i)),
  ];
  while (load.counts.acknowledged < KILL_AFTER) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  killed = true;
  await service.kill();
  await Promise.all(workers);
  return load.counts;
}
