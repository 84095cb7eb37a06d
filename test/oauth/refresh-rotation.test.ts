import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AccountStore } from '../../src/accounts/account-store.js';
import { systemClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type { AppRow } from '../../src/db/rows.js';
import { sha256Hex } from '../../src/security/random.js';
import { describeEachDialect } from '../support/databases.js';
import { counted, sqlDuring } from '../support/statements.js';
import {
  Gate,
  gatedTokenService,
  settle,
  type GatedGrants,
} from '../support/gated-token-service.js';
import {
  REDIRECT_URI,
  createOAuthTenant,
  issueCode,
  type OAuthTenant,
} from '../support/oauth-fixtures.js';

const REFRESHES = 20;

/** Statements run on `db` while `work` ran: all, those that began a transaction, consumptions. */
async function statementsDuring<T>(db: Database, work: () => Promise<T>) {
  const { result, sql } = await sqlDuring(db, work);
  return {
    result,
    begins: counted(sql, /^begin\b/i),
    consumptions: counted(sql, /^update .refresh_tokens./i),
    sql: sql.length,
  };
}

/**
 * A refresh rotates its token in a group commit (TokenStore.rotateRefreshToken): concurrent
 * refreshes share transactions, and the consumption decides, inside the group's transaction,
 * whether a refresh's rows are stored at all.
 */
describeEachDialect('refresh token rotation in group commit', (database) => {
  let db: Database;
  let tenant: OAuthTenant;
  let client: AppRow;
  let service: GatedGrants;

  before(async () => {
    db = database().db;
    tenant = await createOAuthTenant(db, systemClock, 'rotation');
    client = await db('apps').where({ id: tenant.app.id }).first();
    service = gatedTokenService(db, {});
  });

  async function signIn(): Promise<string> {
    const code = await issueCode(db, systemClock, { app_id: client.id, user_id: tenant.user.id });
    const issued = await service.authorizationCode(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
    });
    return issued.refresh_token!;
  }

  const refresh = (token: string) =>
    service.refreshToken(client, { grant_type: 'refresh_token', refresh_token: token });

  async function familyOf(token: string) {
    const row = await db('refresh_tokens')
      .where({ token_hash: sha256Hex(token) })
      .first();
    const accessTokens = await db('access_tokens').where({ refresh_family_id: row.family_id });
    const refreshTokens = await db('refresh_tokens').where({ family_id: row.family_id });
    return { accessTokens: accessTokens.length, refreshTokens: refreshTokens.length };
  }

  it('concurrent refreshes of different tokens share transactions', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < REFRESHES; i++) tokens.push(await signIn());
    const { result, begins, consumptions } = await statementsDuring(db, () =>
      Promise.all(tokens.map((token) => refresh(token))),
    );
    assert.equal(result.length, REFRESHES);
    assert.ok(begins < REFRESHES / 2, `${begins} transactions for ${REFRESHES} refreshes`);
    // One UPDATE consumes the tokens of a whole group.
    assert.equal(consumptions, begins);
    for (const token of tokens) {
      assert.deepEqual(await familyOf(token), { accessTokens: 2, refreshTokens: 2 });
    }
  });

  it('of refreshes with one token in one group, one stores; the others store nothing', async () => {
    const token = await signIn();
    const answers = await Promise.all(Array.from({ length: 5 }, () => settle(refresh(token))));
    assert.equal(answers.filter((a) => a.status === 'fulfilled').length, 1);
    // The losers found the token consumed (a reuse): the family is revoked, nothing was added.
    assert.deepEqual(await familyOf(token), { accessTokens: 2, refreshTokens: 2 });
    const family = await db('refresh_token_families')
      .join('refresh_tokens', 'refresh_tokens.family_id', 'refresh_token_families.id')
      .where('refresh_tokens.token_hash', sha256Hex(token))
      .first('refresh_token_families.revoked_at');
    assert.notEqual(family.revoked_at, null);
  });

  it('rotates inside a transaction too, with what the transaction stores', async () => {
    const open = new Gate();
    open.open();
    // A gated service rotates in a transaction of its own (test/support/gated-token-service.ts).
    const inTransaction = gatedTokenService(db, { beforeCommit: open });
    const token = await signIn();
    const request = { grant_type: 'refresh_token', refresh_token: token } as const;
    const { result: first, begins } = await statementsDuring(db, () =>
      inTransaction.refreshToken(client, request),
    );
    assert.equal(begins, 1);
    assert.ok(first.refresh_token);
    assert.deepEqual(await familyOf(token), { accessTokens: 2, refreshTokens: 2 });
    assert.equal((await settle(inTransaction.refreshToken(client, request))).status, 'rejected');
    assert.deepEqual(await familyOf(token), { accessTokens: 2, refreshTokens: 2 });
    const live = await db('access_tokens')
      .whereIn(
        'refresh_family_id',
        db('refresh_tokens')
          .where({ token_hash: sha256Hex(token) })
          .select('family_id'),
      )
      .whereNull('revoked_at');
    assert.equal(live.length, 0);
  });

  it('reads the user with their employers in one statement, as the two reads would', async () => {
    const accounts = new AccountStore(db);
    const userId = tenant.user.id;
    // Two more employers, one named like another so that the id breaks the tie.
    for (const name of ['Zeta Staffing', tenant.employer.name]) {
      const employer = { id: randomUUID(), name, created_at: Date.now() };
      await accounts.insertEmployer(employer);
      await accounts.insertMembership({
        user_id: userId,
        employer_id: employer.id,
        role: 'admin',
        created_at: Date.now(),
      });
    }
    const { result: found, sql } = await statementsDuring(db, () =>
      accounts.findUserWithEmployers(userId),
    );
    assert.equal(sql, 1);
    assert.deepEqual(found, {
      user: await accounts.findUserById(userId),
      employers: await accounts.listEmployersOfUser(userId),
    });
    assert.equal(found!.employers.length, 3);
    assert.equal(await accounts.findUserWithEmployers(randomUUID()), undefined);
  });
});
