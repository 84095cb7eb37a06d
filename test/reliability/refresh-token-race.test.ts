import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type { AppRow } from '../../src/db/rows.js';
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
import { TokenRequests, refreshTokensOfSignIns } from '../support/token-requests.js';

const ROUNDS = 10;
const SAME_TOKEN_REFRESHES = 10;

/** Access tokens of a refresh token's family that still work. */
async function liveAccessTokensOfFamily(db: Database, refreshToken: string): Promise<number> {
  const row = await db('refresh_tokens')
    .where({ token_hash: sha256Hex(refreshToken) })
    .first();
  const live = await db('access_tokens')
    .where({ refresh_family_id: row.family_id })
    .whereNull('revoked_at');
  return live.length;
}

/**
 * DESIGN §3: refresh tokens rotate on every use; the consume step is atomic (of concurrent
 * refreshes with one token exactly one succeeds); a consumed token that comes back revokes the
 * whole family, including whatever a concurrent refresh is storing at that moment.
 */
describeEachDeployment('reliability: refresh tokens used concurrently', (database, deployment) => {
  let tenant: OAuthTenant;
  let service: RunningDeployment;
  let requests: TokenRequests;

  before(async () => {
    tenant = await createOAuthTenant(database().db, systemClock, 'refresh-race');
    service = await startDeployment(database(), deployment, RAISED_RATE_LIMITS);
    requests = new TokenRequests(service.url, tenant.app);
  });
  after(async () => {
    await service?.stop();
  });

  it(`${SAME_TOKEN_REFRESHES} refreshes with one token: one wins, and the reuse revokes it all`, async () => {
    const tokens = await refreshTokensOfSignIns(database().db, tenant, requests, ROUNDS);
    for (const token of tokens) {
      const answers = await Promise.all(
        Array.from({ length: SAME_TOKEN_REFRESHES }, () => requests.refresh(token)),
      );
      assert.deepEqual(
        tally(answers, (a) => `${a.status} ${a.body.error ?? ''}`.trim()),
        { 200: 1, '400 invalid_grant': SAME_TOKEN_REFRESHES - 1 },
      );
      const winner = answers.find((a) => a.status === 200)!.body;
      assert.equal((await requests.introspect(winner.access_token)).body.active, false);
      assert.equal((await requests.introspect(winner.refresh_token)).body.active, false);
      assert.equal((await requests.refresh(winner.refresh_token)).body.error, 'invalid_grant');
    }
  });

  it('a replayed older token racing a refresh with the current one leaves nothing active', async () => {
    const tokens = await refreshTokensOfSignIns(database().db, tenant, requests, ROUNDS);
    let live = 0;
    for (const older of tokens) {
      const current = (await requests.refresh(older)).body.refresh_token as string;
      const [refreshed, replayed] = await Promise.all([
        requests.refresh(current),
        requests.refresh(older),
      ]);
      assert.equal(replayed.body.error, 'invalid_grant');
      if (refreshed.status === 200) {
        assert.equal((await requests.introspect(refreshed.body.refresh_token)).body.active, false);
      }
      live += await liveAccessTokensOfFamily(database().db, older);
    }
    assert.equal(live, 0, 'access tokens of revoked families still active');
  });

  it('a replay that revokes the family while a refresh is committing catches its tokens too', async function () {
    // On SQLite a transaction holds the only writer until it commits: the replay cannot run in
    // the middle of it. On PostgreSQL it could, and it cannot see rows not yet committed.
    if (database().dialect === 'sqlite') this.skip();
    const db = database().db;
    const client: AppRow = await db('apps').where({ id: tenant.app.id }).first();
    const plain = gatedTokenService(db, {});
    const code = await issueCode(db, systemClock, { app_id: client.id, user_id: tenant.user.id });
    const signedIn = await plain.authorizationCode(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
    });
    const older = signedIn.refresh_token!;
    const current = (
      await plain.refreshToken(client, { grant_type: 'refresh_token', refresh_token: older })
    ).refresh_token!;

    const beforeCommit = new Gate();
    const gated = gatedTokenService(db, { beforeCommit });
    const refreshing = settle(
      gated.refreshToken(client, { grant_type: 'refresh_token', refresh_token: current }),
    );
    await beforeCommit.reached;
    // The replay gets as far as it can while the refresh holds its transaction open: without
    // ordering the two, all the way through its revocation.
    const replaying = settle(
      plain.refreshToken(client, { grant_type: 'refresh_token', refresh_token: older }),
    );
    await Promise.race([replaying, new Promise((resolve) => setTimeout(resolve, 300))]);
    beforeCommit.open();
    const [replay] = await Promise.all([replaying, refreshing]);

    assert.equal(replay.status, 'rejected');
    assert.equal(await liveAccessTokensOfFamily(db, older), 0);
  });
});
