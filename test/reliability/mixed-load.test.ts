import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { runConcurrently, tally, volume } from '../support/concurrency.js';
import { halfWrittenRows } from '../support/integrity.js';
import { checkLedger } from '../support/ledger-check.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS, fixedAddress } from '../support/service-process.js';
import { describeEachDeployment, startDeployment } from '../support/deployments.js';
import { TokenRequests, refreshTokensOfSignIns } from '../support/token-requests.js';
import { WriteLedger } from '../support/write-ledger.js';
import { WriteLoad } from '../support/write-load.js';

const TOKENS = volume('RELIABILITY_MIXED_TOKENS', 200);
const SIGN_INS = volume('RELIABILITY_MIXED_SIGN_INS', 24);
const REFRESHES = volume('RELIABILITY_MIXED_REFRESHES', 60);
const EVENTS = volume('RELIABILITY_MIXED_EVENTS', 60);
const CONCURRENCY = 24;

/**
 * Token requests, console sign-ins, refreshes and event creations all at once, then one more
 * mutation, then a restart: every acknowledged write is there, and nothing is half written.
 */
describeEachDeployment(
  'reliability: mixed concurrent writes, then a restart',
  (database, deployment) => {
    let tenant: OAuthTenant;

    before(async () => {
      tenant = await createOAuthTenant(database().db, systemClock, 'mixed');
    });

    it('keeps every acknowledged token, session, refresh and event', async function () {
      this.timeout(120_000);
      const env = { ...(await fixedAddress()), ...RAISED_RATE_LIMITS };
      const ledger = new WriteLedger();
      const first = await startDeployment(database(), deployment, env);
      try {
        const requests = new TokenRequests(first.url, tenant.app);
        const refreshTokens = await refreshTokensOfSignIns(
          database().db,
          tenant,
          requests,
          REFRESHES,
        );
        const employerToken = (await requests.clientCredentials(tenant.employer.id)).body
          .access_token;
        const load = new WriteLoad(first.url, tenant, ledger, employerToken);
        const work: Array<readonly [kind: string, run: () => Promise<unknown>]> = [
          ...Array.from({ length: TOKENS }, () => ['token', () => load.issueToken()] as const),
          ...Array.from({ length: SIGN_INS }, () => ['sign-in', () => load.signIn()] as const),
          ...refreshTokens.map((token) => ['refresh', () => load.refresh(token)] as const),
          ...Array.from(
            { length: EVENTS },
            (_, i) => ['event', () => load.createEvent(4, i % 2 === 0)] as const,
          ),
        ];
        // Interleaved, so that every kind is in flight together from start to end.
        const order = work
          .map((_, i) => i)
          .sort((a, b) => spread(a, work.length) - spread(b, work.length));
        const outcomes = await runConcurrently(work.length, CONCURRENCY, (i) =>
          work[order[i]!]![1](),
        );
        const done = tally(
          outcomes.map((outcome, i) => ({ outcome, kind: work[order[i]!]![0] })),
          ({ outcome, kind }) =>
            `${kind}:${outcome.status === 'fulfilled' && outcome.value ? 'ok' : 'not acknowledged'}`,
        );
        assert.deepEqual(done, {
          'token:ok': TOKENS,
          'sign-in:ok': SIGN_INS,
          'refresh:ok': REFRESHES,
          'event:ok': EVENTS,
        });

        const last = [...ledger.events.keys()].at(-1)!;
        assert.equal(await load.addInterviewers(last, 2), true, 'a mutation after the load');
      } finally {
        await first.stop();
      }

      const second = await startDeployment(database(), deployment, env);
      try {
        const report = await checkLedger(ledger, { url: second.url, db: database().db, tenant });
        console.log(`      acknowledged ${JSON.stringify(report.acknowledged)}`);
        console.log(`      found        ${JSON.stringify(report.found)}`);
        assert.deepEqual(report.problems, []);
        assert.deepEqual(report.found, report.acknowledged);
        assert.deepEqual(await halfWrittenRows(database().db), []);
      } finally {
        await second.stop();
      }
    });
  },
);

/** A position that scatters consecutive indexes across the whole run (a fixed permutation). */
function spread(index: number, length: number): number {
  return (index * 7919) % length;
}
