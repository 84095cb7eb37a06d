import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import type { AppRow } from '../../src/db/rows.js';
import { OAuthError } from '../../src/oauth/oauth-error.js';
import { sha256Hex } from '../../src/security/random.js';
import { tally } from '../support/concurrency.js';
import { Gate, gatedTokenService, settle } from '../support/gated-token-service.js';
import {
  REDIRECT_URI,
  createOAuthTenant,
  issueCode,
  type OAuthTenant,
} from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { TokenRequests } from '../support/token-requests.js';

const ROUNDS = 10;
const EXCHANGES = 5;

/**
 * DESIGN §3: a replayed code gets invalid_grant and revokes every token issued from it. When
 * the exchanges come at once, the replay must also catch the tokens the first exchange is still
 * storing: no token of a replayed code may stay active.
 */
describeEachDeployment(
  'reliability: one authorization code redeemed concurrently',
  (database, deployment) => {
    let tenant: OAuthTenant;
    let service: RunningDeployment;
    const newCode = () =>
      issueCode(database().db, systemClock, { app_id: tenant.app.id, user_id: tenant.user.id });
    const activeTokensOf = async (code: string) => {
      const codeHash = sha256Hex(code);
      const access = await database()
        .db('access_tokens')
        .where({ auth_code_hash: codeHash })
        .whereNull('revoked_at');
      const families = await database()
        .db('refresh_token_families')
        .where({ auth_code_hash: codeHash })
        .whereNull('revoked_at');
      return access.length + families.length;
    };

    before(async () => {
      tenant = await createOAuthTenant(database().db, systemClock, 'code-race');
      service = await startDeployment(database(), deployment, RAISED_RATE_LIMITS);
    });
    after(async () => {
      await service?.stop();
    });

    it(`${EXCHANGES} exchanges at once: one answer with tokens, and none of them stays active`, async () => {
      const requests = new TokenRequests(service.url, tenant.app);
      let survivors = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const code = await newCode();
        const answers = await Promise.all(
          Array.from({ length: EXCHANGES }, () => requests.exchangeCode(code)),
        );
        assert.deepEqual(
          tally(answers, (a) => `${a.status} ${a.body.error ?? ''}`.trim()),
          { 200: 1, '400 invalid_grant': EXCHANGES - 1 },
        );
        const winner = answers.find((a) => a.status === 200)!.body;
        for (const token of [winner.access_token, winner.refresh_token]) {
          if ((await requests.introspect(token)).body.active) survivors += 1;
        }
      }
      assert.equal(survivors, 0, 'tokens of replayed codes that are still active');
    });

    it('a replay while the first exchange is signing revokes what that exchange then stores', async () => {
      const client: AppRow = await database().db('apps').where({ id: tenant.app.id }).first();
      const code = await newCode();
      const request = {
        grant_type: 'authorization_code' as const,
        code,
        redirect_uri: REDIRECT_URI,
      };
      const signing = new Gate();
      const gated = gatedTokenService(database().db, { signing });

      const first = settle(gated.authorizationCode(client, request));
      await signing.reached;
      const second = await settle(gated.authorizationCode(client, request));
      signing.open();
      const outcomes = [await first, second];

      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
      const refusal = outcomes.find((o) => o.status === 'rejected')!.reason;
      assert.ok(
        refusal instanceof OAuthError && refusal.error === 'invalid_grant',
        String(refusal),
      );
      assert.equal(await activeTokensOf(code), 0, 'access tokens and refresh families left active');
    });
  },
);
