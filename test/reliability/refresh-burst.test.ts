import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { runConcurrently, tally, volume } from '../support/concurrency.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS, fixedAddress } from '../support/service-process.js';
import { describeEachDeployment, startDeployment } from '../support/deployments.js';
import { TokenRequests, refreshTokensOfSignIns } from '../support/token-requests.js';

const SIGN_INS = volume('RELIABILITY_REFRESH_TOKENS', 150);
const CONCURRENCY = 50;

/**
 * Issue 9 saw the refresh grant answer 500 to 98% of requests at concurrency 50. Here as many
 * refreshes as there are sign-ins run 50 at a time, every one must succeed, and after a restart
 * every rotated refresh token and every new access token is still active while every presented
 * one is spent.
 */
describeEachDeployment('reliability: refresh grant at concurrency 50', (database, deployment) => {
  let tenant: OAuthTenant;

  before(async () => {
    tenant = await createOAuthTenant(database().db, systemClock, 'refresh');
  });

  it(`rotates ${SIGN_INS} refresh tokens 50 at a time, and keeps them all`, async function () {
    this.timeout(120_000);
    const env = { ...(await fixedAddress()), ...RAISED_RATE_LIMITS };
    const first = await startDeployment(database(), deployment, env);
    let presented: string[];
    const rotated: string[] = [];
    const accessTokens: string[] = [];
    try {
      const requests = new TokenRequests(first.url, tenant.app);
      presented = await refreshTokensOfSignIns(database().db, tenant, requests, SIGN_INS);
      const outcomes = await runConcurrently(SIGN_INS, CONCURRENCY, (i) =>
        // Half of them switch to the employer, as the published sample apps do.
        requests.refresh(presented[i]!, i % 2 ? tenant.employer.id : undefined),
      );
      const statuses = tally(outcomes, (o) =>
        o.status === 'fulfilled' ? `${o.value.status}` : 'failed',
      );
      console.log(`      refresh answers: ${JSON.stringify(statuses)}`);
      assert.deepEqual(statuses, { 200: SIGN_INS });
      for (const outcome of outcomes) {
        if (outcome.status !== 'fulfilled') continue;
        rotated.push(outcome.value.body.refresh_token);
        accessTokens.push(outcome.value.body.access_token);
      }
    } finally {
      await first.stop();
    }

    const second = await startDeployment(database(), deployment, env);
    try {
      const requests = new TokenRequests(second.url, tenant.app);
      const activeCount = async (tokens: string[]) => {
        const answers = await runConcurrently(tokens.length, 8, (i) =>
          requests.introspect(tokens[i]!),
        );
        return answers.filter((a) => a.status === 'fulfilled' && a.value.body.active === true)
          .length;
      };
      const found = {
        rotated: await activeCount(rotated),
        accessTokens: await activeCount(accessTokens),
        presented: await activeCount(presented),
      };
      console.log(`      active after restart (of ${SIGN_INS} each): ${JSON.stringify(found)}`);
      assert.deepEqual(found, { rotated: SIGN_INS, accessTokens: SIGN_INS, presented: 0 });
    } finally {
      await second.stop();
    }
  });
});
