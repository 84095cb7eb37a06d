import assert from 'node:assert/strict';
import { AuditLog } from '../../src/audit/audit-log.js';
import { AuditStore } from '../../src/audit/audit-store.js';
import { systemClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type { AppRow } from '../../src/db/rows.js';
import { TokenRevocation } from '../../src/oauth/token/revocation.js';
import type { AccessTokenVerifier } from '../../src/oauth/tokens/access-token-verifier.js';
import { TokenStore } from '../../src/oauth/tokens/token-store.js';
import { sha256Hex } from '../../src/security/random.js';
import { describeEachDialect, type Dialect } from '../support/databases.js';
import { gatedTokenService, settle } from '../support/gated-token-service.js';
import { silentLogger } from '../support/logger.js';
import { REDIRECT_URI, createOAuthTenant, issueCode } from '../support/oauth-fixtures.js';

/** Makes every UPDATE of access_tokens fail, as a process dying at that statement would stop. */
async function failAccessTokenUpdates(
  db: Database,
  dialect: Dialect,
): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    await db.raw(`create trigger fail_access_token_updates before update on access_tokens
      begin select raise(abort, 'simulated failure'); end`);
    return async () => void (await db.raw('drop trigger fail_access_token_updates'));
  }
  await db.raw(`create function fail_update() returns trigger language plpgsql as
    $$ begin raise exception 'simulated failure'; end $$`);
  await db.raw(`create trigger fail_access_token_updates before update on access_tokens
    for each row execute function fail_update()`);
  return async () => {
    await db.raw('drop trigger fail_access_token_updates on access_tokens');
    await db.raw('drop function fail_update()');
  };
}

/** What is revoked of the family of `refreshToken`: the family itself, and how many access tokens. */
async function revokedState(db: Database, refreshToken: string) {
  const token = await db('refresh_tokens')
    .where({ token_hash: sha256Hex(refreshToken) })
    .first();
  const family = await db('refresh_token_families').where({ id: token.family_id }).first();
  const access = await db('access_tokens').where({ refresh_family_id: token.family_id });
  return {
    family: family.revoked_at !== null,
    accessTokens: access.filter((row: { revoked_at: unknown }) => row.revoked_at !== null).length,
    of: access.length,
  };
}

/**
 * Revoking a family is two changes, the family and its access tokens. If it stops half-way (the
 * process dies, a statement fails), a family marked revoked whose access tokens still work for
 * up to an hour must not be left behind: it happens whole or not at all.
 */
describeEachDialect('reliability: revocation of a token family is all or nothing', (database) => {
  async function signedInTwice() {
    const db = database().db;
    const tenant = await createOAuthTenant(db, systemClock, 'revocation');
    const client: AppRow = await db('apps').where({ id: tenant.app.id }).first();
    const service = gatedTokenService(db, {});
    const code = await issueCode(db, systemClock, { app_id: client.id, user_id: tenant.user.id });
    const older = (
      await service.authorizationCode(client, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
      })
    ).refresh_token!;
    const current = (
      await service.refreshToken(client, { grant_type: 'refresh_token', refresh_token: older })
    ).refresh_token!;
    return { service, client, older, current };
  }

  it('a replay whose revocation fails half-way leaves the family as it was', async () => {
    const { db, dialect } = database();
    const { service, client, older } = await signedInTwice();
    const replay = () =>
      settle(service.refreshToken(client, { grant_type: 'refresh_token', refresh_token: older }));

    const restore = await failAccessTokenUpdates(db, dialect);
    try {
      assert.equal((await replay()).status, 'rejected');
      assert.deepEqual(await revokedState(db, older), { family: false, accessTokens: 0, of: 2 });
    } finally {
      await restore();
    }
    assert.equal((await replay()).status, 'rejected');
    assert.deepEqual(await revokedState(db, older), { family: true, accessTokens: 2, of: 2 });
  });

  it('a revocation request that fails half-way leaves the family as it was', async () => {
    const { db, dialect } = database();
    const { client, current } = await signedInTwice();
    const revocation = new TokenRevocation(
      new TokenStore(db),
      { forgetAll() {} } as unknown as AccessTokenVerifier,
      new AuditLog(new AuditStore(db), systemClock, silentLogger),
      systemClock,
    );
    const revoke = () => settle(revocation.revoke(client, current, 'refresh_token'));

    const restore = await failAccessTokenUpdates(db, dialect);
    try {
      assert.equal((await revoke()).status, 'rejected');
      assert.deepEqual(await revokedState(db, current), { family: false, accessTokens: 0, of: 2 });
    } finally {
      await restore();
    }
    assert.equal((await revoke()).status, 'fulfilled');
    assert.deepEqual(await revokedState(db, current), { family: true, accessTokens: 2, of: 2 });
  });
});
