import assert from 'node:assert/strict';
import { AccountService } from '../../src/accounts/account-service.js';
import { AccountStore } from '../../src/accounts/account-store.js';
import { systemClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type { Transaction } from '../../src/db/transactions.js';
import { ConflictError } from '../../src/errors.js';
import { describeEachDialect } from '../support/databases.js';
import { Gate, settle } from '../support/gated-token-service.js';
import { PASSWORD, createOAuthTenant } from '../support/oauth-fixtures.js';
import { uniqueEmail } from '../support/write-load.js';

/** An AccountStore whose transactions stop at `gate` right after looking up a membership. */
class StoreGatedAfterMembershipCheck extends AccountStore {
  constructor(
    db: Database,
    private readonly gate: Gate,
  ) {
    super(db);
  }

  override inTransaction<T>(work: (store: this, tx: Transaction) => Promise<T>): Promise<T> {
    return super.inTransaction((store, tx) => {
      const gated = Object.create(store) as this;
      gated.findMembership = async (userId, employerId) => {
        const found = await store.findMembership(userId, employerId);
        await this.gate.pass();
        return found;
      };
      return work(gated, tx);
    });
  }
}

/**
 * Adding the same member twice at once (a double-clicked console form, two admins): one is
 * added, the other is told the person is already a member, never a server error.
 */
describeEachDialect('reliability: one member added twice at once', (database) => {
  it('adds once and refuses the other as a conflict', async function () {
    // On SQLite the first transaction holds the only writer while it waits at the gate, so the
    // second cannot run in between (and would wait for it); the interleaving is PostgreSQL's.
    if (database().dialect === 'sqlite') this.skip();
    const db = database().db;
    const tenant = await createOAuthTenant(db, systemClock, 'member-race');
    const plain = new AccountService(new AccountStore(db), systemClock);
    const member = await plain.createUser({ email: uniqueEmail('member'), password: PASSWORD });
    const gate = new Gate();
    const gated = new AccountService(new StoreGatedAfterMembershipCheck(db, gate), systemClock);
    const request = { employerId: tenant.employer.id, email: member.email };

    const first = settle(gated.addMember(request));
    await gate.reached;
    const second = await settle(plain.addMember(request));
    gate.open();
    const outcomes = [await first, second];

    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
    const refusal = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason;
    assert.ok(refusal instanceof ConflictError, String(refusal));
    const rows = await db('memberships').where({
      employer_id: tenant.employer.id,
      user_id: member.id,
    });
    assert.equal(rows.length, 1);
  });
});
