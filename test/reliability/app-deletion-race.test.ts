import assert from 'node:assert/strict';
import type { AppService } from '../../src/accounts/app-service.js';
import { systemClock } from '../../src/clock.js';
import type { AppRow } from '../../src/db/rows.js';
import { OAuthError } from '../../src/oauth/oauth-error.js';
import { runConcurrently, tally } from '../support/concurrency.js';
import { Gate, gatedTokenService, settle } from '../support/gated-token-service.js';
import { outcomeCode } from '../support/interview-requests.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { TokenRequests, employerApi } from '../support/token-requests.js';
import { testAccounts } from '../support/compose.js';

const ROUNDS = 5;
const REQUESTS = 40;

/**
 * The console deletes an app while it is requesting tokens, or while a token of it is trusted. A request authenticated just before
 * the deletion cannot store its token any more (the app's rows are gone): it must be told that
 * the client no longer exists (401 invalid_client), like every request after it, never 500.
 */
describeEachDeployment(
  'reliability: app deletion during token requests',
  (database, deployment) => {
    let service: RunningDeployment;
    let apps: AppService;

    before(async () => {
      // Verified tokens trusted for 10 s: long enough that the last test's token is still trusted
      // when its app is deleted behind this process's back.
      service = await startDeployment(database(), deployment, {
        ...RAISED_RATE_LIMITS,
        TOKEN_VERIFICATION_CACHE_MS: '10000',
      });
      const db = database().db;
      apps = testAccounts(db).apps;
    });
    after(async () => {
      await service?.stop();
    });

    it(`answers every one of ${REQUESTS} requests 200 or 401 around the deletion`, async () => {
      const totals: Record<string, number> = {};
      for (let round = 0; round < ROUNDS; round += 1) {
        const tenant = await createOAuthTenant(database().db, systemClock, 'deleted');
        const requests = new TokenRequests(service.url, tenant.app);
        const deletion = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 10 + 10 * round));
          await apps.deleteApp(tenant.user.id, tenant.app.client_id);
        })();
        const outcomes = await runConcurrently(REQUESTS, 8, () =>
          requests.clientCredentials(tenant.employer.id),
        );
        await deletion;
        const counted = tally(outcomes, (o) =>
          o.status === 'fulfilled'
            ? `${o.value.status} ${o.value.body.error ?? ''}`.trim()
            : 'failed',
        );
        assert.equal(
          (counted['200'] ?? 0) + (counted['401 invalid_client'] ?? 0),
          REQUESTS,
          JSON.stringify(counted),
        );
        for (const [answer, count] of Object.entries(counted))
          totals[answer] = (totals[answer] ?? 0) + count;
      }
      console.log(`      answers over ${ROUNDS} deletions: ${JSON.stringify(totals)}`);
    });

    it('a client-credentials request whose app is deleted while it signs is invalid_client', async () => {
      const db = database().db;
      const tenant = await createOAuthTenant(db, systemClock, 'deleted-mid-request');
      const client: AppRow = await db('apps').where({ id: tenant.app.id }).first();
      const signing = new Gate();
      const issuing = settle(
        gatedTokenService(db, { signing }).clientCredentials(client, {
          grant_type: 'client_credentials',
          scope: 'employer_access',
          employer: tenant.employer.id,
        }),
      );
      await signing.reached;
      await apps.deleteApp(tenant.user.id, tenant.app.client_id);
      signing.open();
      const outcome = await issuing;

      assert.equal(outcome.status, 'rejected');
      const error = (outcome as PromiseRejectedResult).reason;
      assert.ok(error instanceof OAuthError && error.error === 'invalid_client', String(error));
      assert.equal((await db('access_tokens').where({ app_id: client.id })).length, 0);
    });

    it('an event created with a token whose app was deleted elsewhere is UNAUTHENTICATED', async () => {
      const tenant = await createOAuthTenant(database().db, systemClock, 'deleted-elsewhere');
      const api = await employerApi(service.url, tenant);
      assert.equal(outcomeCode(await api.create({ interviewers: [] })), 'ok');
      // Another process (or the CLI) deletes the app: this process still trusts the token a while.
      await apps.deleteApp(tenant.user.id, tenant.app.client_id);
      const refused = await api.create({ interviewers: [] });
      assert.equal(outcomeCode(refused), 'UNAUTHENTICATED', JSON.stringify(refused.errors));
      assert.equal(
        (await database().db('interview_events').where({ created_by_app_id: tenant.app.id }))
          .length,
        0,
      );
    });
  },
);
