import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../../src/clock.js';
import { runConcurrently, tally, volume } from '../support/concurrency.js';
import { InterviewRequests, mutatedEvent, outcomeCode } from '../support/interview-requests.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS, fixedAddress } from '../support/service-process.js';
import { describeEachDeployment, startDeployment } from '../support/deployments.js';
import { TokenRequests } from '../support/token-requests.js';

/** Issue 9's burst: exactly the default token limit (300 per minute per client and address). */
const BURST = volume('RELIABILITY_BURST', 300);
const CONCURRENCY = 8;

/**
 * Issue 9, reproduced at the default settings: a burst of client-credentials requests, then a
 * mutation that must reach the database, then a restart that must find every token handed out.
 * The old rate-limit store left the SQLite connection inside a transaction for good: the
 * mutation answered INTERNAL_SERVER_ERROR and every token was gone after the restart.
 */
describeEachDeployment(
  'reliability: a client-credentials burst, then writes',
  (database, deployment) => {
    let tenant: OAuthTenant;

    before(async () => {
      tenant = await createOAuthTenant(database().db, systemClock, 'burst');
    });

    it(`keeps every one of ${BURST} tokens and the next writes, across a restart`, async function () {
      this.timeout(120_000);
      const address = await fixedAddress();
      const first = await startDeployment(database(), deployment, address);
      const acknowledged: string[] = [];
      let createdId: string;
      try {
        const tokens = new TokenRequests(first.url, tenant.app);
        const outcomes = await runConcurrently(BURST, CONCURRENCY, () =>
          tokens.clientCredentials(tenant.employer.id),
        );
        const statuses = tally(outcomes, (o) =>
          o.status === 'fulfilled' ? `${o.value.status}` : 'failed',
        );
        for (const outcome of outcomes) {
          if (outcome.status === 'fulfilled' && outcome.value.status === 200) {
            acknowledged.push(outcome.value.body.access_token);
          }
        }
        assert.deepEqual(statuses, { 200: BURST });

        const api = new InterviewRequests(first.url, acknowledged[0]!);
        assert.equal(outcomeCode(await api.cancel(randomUUID())), 'NOT_FOUND');
        const created = mutatedEvent(await api.create({ interviewers: ['lee@example.com'] }));
        assert.ok(created, 'an event is created after the burst');
        createdId = created.id;
      } finally {
        await first.stop();
      }

      // The limit of the restarted process is raised: the check must not be refused by it.
      const second = await startDeployment(database(), deployment, {
        ...address,
        ...RAISED_RATE_LIMITS,
      });
      try {
        const tokens = new TokenRequests(second.url, tenant.app);
        const checks = await runConcurrently(acknowledged.length, CONCURRENCY, async (i) => {
          const answer = await tokens.introspect(acknowledged[i]!);
          assert.equal(answer.status, 200);
          return answer.body.active === true;
        });
        const active = checks.filter((c) => c.status === 'fulfilled' && c.value).length;
        console.log(
          `      tokens acknowledged: ${acknowledged.length}, active after restart: ${active}`,
        );
        assert.equal(active, BURST);
        const [event] = await new InterviewRequests(second.url, acknowledged[0]!).read([createdId]);
        assert.equal(event?.interviewersConnection.totalCount, 2, 'the event and its interviewers');
      } finally {
        await second.stop();
      }
    });
  },
);
