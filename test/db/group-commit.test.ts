import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../../src/clock.js';
import { ChangeEpochStore } from '../../src/db/change-epochs.js';
import type { Database } from '../../src/db/database.js';
import { isForeignKeyViolation } from '../../src/db/errors.js';
import { StaleFacts } from '../../src/db/group-commit.js';
import type { AuditEventRow } from '../../src/db/rows.js';
import { inTransaction } from '../../src/db/transactions.js';
import { TokenStore } from '../../src/oauth/tokens/token-store.js';
import { describeEachDialect } from '../support/databases.js';
import { counted, sqlDuring } from '../support/statements.js';
import { settle } from '../support/gated-token-service.js';
import { accessTokenRow, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';

const WRITES = 200;

/** What one issued app token stores: its row and the audit row of its issue. */
function tokenWrite(appId: string, marker: string) {
  const row = accessTokenRow(appId);
  const { jti } = row;
  const audit: Omit<AuditEventRow, 'id'> = {
    occurred_at: row.issued_at,
    type: 'token.issued',
    actor_user_id: null,
    app_id: null,
    employer_id: null,
    request_id: null,
    ip: null,
    details: JSON.stringify({ grant: 'client_credentials', marker, jti }),
  };
  return { jti, row, audit };
}

/** Statements sent to `db` while `work` runs, by kind. */
async function statementsDuring<T>(db: Database, work: () => Promise<T>) {
  const { result, sql } = await sqlDuring(db, work);
  return {
    result,
    begins: counted(sql, /^begin\b/i),
    commits: counted(sql, /^commit\b/i),
    tokenInserts: counted(sql, /^insert into .access_tokens./i),
  };
}

/**
 * Group commit (src/db/group-commit.ts, DESIGN §7): concurrent token writes share transactions,
 * each is acknowledged only once committed, a bad write fails alone, and a write whose cached
 * facts went stale is refused whole.
 */
describeEachDialect('group commit of issued tokens', (database) => {
  let db: Database;
  let tokens: TokenStore;
  let tenant: OAuthTenant;

  const jtisPresent = async (jtis: string[]) =>
    (await db('access_tokens').whereIn('jti', jtis).pluck('jti')).length;
  const auditRowsMarked = async (marker: string) =>
    (await db('audit_events').where('details', 'like', `%"marker":"${marker}"%`)).length;

  /** One write on its own: the group commit still takes writes after whatever came before. */
  async function assertNextWriteWorks(): Promise<void> {
    const write = tokenWrite(tenant.app.id, `next-${randomUUID()}`);
    await tokens.insertIssuedAccessToken(write.row, write.audit, undefined);
    assert.equal(await jtisPresent([write.jti]), 1);
  }

  before(async () => {
    db = database().db;
    tokens = new TokenStore(db);
    tenant = await createOAuthTenant(db, systemClock, 'grouped');
  });

  it(`commits ${WRITES} concurrent token writes in fewer than ${WRITES} transactions`, async () => {
    const marker = randomUUID();
    const writes = Array.from({ length: WRITES }, () => tokenWrite(tenant.app.id, marker));
    const { result, begins, commits, tokenInserts } = await statementsDuring(db, () =>
      Promise.allSettled(
        writes.map((w) => tokens.insertIssuedAccessToken(w.row, w.audit, undefined)),
      ),
    );
    const rejected = result.filter((o) => o.status === 'rejected');
    assert.deepEqual(rejected, [], 'every write is acknowledged');
    // Each acknowledged write is there, with its audit row.
    assert.equal(await jtisPresent(writes.map((w) => w.jti)), WRITES);
    assert.equal(await auditRowsMarked(marker), WRITES);
    console.log(
      `      ${WRITES} writes: ${begins} transactions, ${tokenInserts} access_tokens INSERTs`,
    );
    assert.ok(begins >= 1 && begins < WRITES, `${begins} transactions for ${WRITES} writes`);
    assert.equal(commits, begins, 'every transaction committed');
    assert.ok(tokenInserts < WRITES, `${tokenInserts} INSERT statements for ${WRITES} rows`);
  });

  it('fails only the write that violates a foreign key; the rest of its group commits', async () => {
    const marker = randomUUID();
    const good = Array.from({ length: 20 }, () => tokenWrite(tenant.app.id, marker));
    const bad = tokenWrite(randomUUID(), marker); // an app that does not exist
    // Queued in one turn of the event loop: one group, whose transaction fails as a whole.
    const outcomes = await Promise.all(
      [...good.slice(0, 10), bad, ...good.slice(10)].map((w) =>
        settle(tokens.insertIssuedAccessToken(w.row, w.audit, undefined)),
      ),
    );
    const badOutcome = outcomes[10]!;
    assert.equal(badOutcome.status, 'rejected');
    const reason = (badOutcome as PromiseRejectedResult).reason;
    assert.ok(isForeignKeyViolation(reason), `a foreign key violation, not ${String(reason)}`);
    assert.deepEqual(
      outcomes.filter((_, i) => i !== 10).map((o) => o.status),
      good.map(() => 'fulfilled'),
    );
    assert.equal(await jtisPresent(good.map((w) => w.jti)), good.length);
    assert.equal(await jtisPresent([bad.jti]), 0);
    // The bad write's audit row went with it; the good ones' stayed.
    assert.equal(await auditRowsMarked(marker), good.length);
    await assertNextWriteWorks();
  });

  it('keeps committing the writes queued behind a failing group', async () => {
    const marker = randomUUID();
    const first = Array.from({ length: 10 }, () => tokenWrite(tenant.app.id, marker));
    const bad = tokenWrite(randomUUID(), marker);
    const firstGroup = [bad, ...first].map((w) =>
      settle(tokens.insertIssuedAccessToken(w.row, w.audit, undefined)),
    );
    // Queued once the first group's commit is under way: they form the next group(s).
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 10 }, () => tokenWrite(tenant.app.id, marker));
    const laterGroup = later.map((w) =>
      settle(tokens.insertIssuedAccessToken(w.row, w.audit, undefined)),
    );
    const outcomes = await Promise.all([...firstGroup, ...laterGroup]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', ...first.map(() => 'fulfilled'), ...later.map(() => 'fulfilled')],
    );
    assert.equal(await jtisPresent([...first, ...later].map((w) => w.jti)), 20);
    await assertNextWriteWorks();
  });

  it('refuses a write whose facts are older than the epoch, whole; the others commit', async () => {
    const epochs = new ChangeEpochStore(db);
    const asOf = await epochs.accounts();
    // Another process changes an app: the trigger moves the accounts epoch.
    await db('apps').where({ id: tenant.app.id }).update({ updated_at: Date.now() });
    const now = await epochs.accounts();
    assert.ok(now > asOf, `the epoch moved (${asOf} -> ${now})`);

    const marker = randomUUID();
    const stale = tokenWrite(tenant.app.id, `${marker}-stale`);
    const unchecked = tokenWrite(tenant.app.id, marker);
    const fresh = tokenWrite(tenant.app.id, marker);
    const [staleOutcome, uncheckedOutcome, freshOutcome] = await Promise.all([
      settle(tokens.insertIssuedAccessToken(stale.row, stale.audit, asOf)),
      settle(tokens.insertIssuedAccessToken(unchecked.row, unchecked.audit, undefined)),
      settle(tokens.insertIssuedAccessToken(fresh.row, fresh.audit, now)),
    ]);
    assert.equal(staleOutcome!.status, 'rejected');
    const reason = (staleOutcome as PromiseRejectedResult).reason;
    assert.ok(reason instanceof StaleFacts, `StaleFacts, not ${String(reason)}`);
    assert.equal(reason.epoch, now, 'it names the epoch it found');
    assert.equal(uncheckedOutcome!.status, 'fulfilled');
    assert.equal(freshOutcome!.status, 'fulfilled');

    assert.equal(await jtisPresent([stale.jti]), 0, 'no token row of the stale write');
    assert.equal(await auditRowsMarked(`${marker}-stale`), 0, 'no audit row of the stale write');
    assert.equal(await jtisPresent([unchecked.jti, fresh.jti]), 2);
    assert.equal(await auditRowsMarked(marker), 2);
    await assertNextWriteWorks();
  });

  it('inside a caller transaction, a stale write throws StaleFacts and the transaction rolls back', async () => {
    const epochs = new ChangeEpochStore(db);
    const asOf = await epochs.accounts();
    await db('memberships')
      .where({ user_id: tenant.user.id, employer_id: tenant.employer.id })
      .update({ role: 'member' });
    assert.ok((await epochs.accounts()) > asOf);
    const write = tokenWrite(tenant.app.id, randomUUID());
    await assert.rejects(
      inTransaction(db, (tx) =>
        new TokenStore(tx).insertIssuedAccessToken(write.row, write.audit, asOf),
      ),
      StaleFacts,
    );
    assert.equal(await jtisPresent([write.jti]), 0);
    await assertNextWriteWorks();
  });
});
