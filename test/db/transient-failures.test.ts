import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/db/database.js';
import { Store } from '../../src/db/store.js';
import { TemporarilyUnavailable } from '../../src/errors.js';
import { describeEachDialect, type Dialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';

/** A store of one scratch table. */
class ItemStore extends Store {
  async insert(id: number): Promise<void> {
    await this.db('items').insert({ id });
  }

  async ids(): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.db('items').orderBy('id').select('id');
    return rows.map((row) => Number(row.id));
  }

  async lock(id: number): Promise<void> {
    await this.forUpdate(this.db('items').where({ id }).first('id'));
  }
}

/** The error the engine's driver gives when it undid work because of concurrent work. */
function transientError(dialect: Dialect): Error & { code: string } {
  return dialect === 'postgres'
    ? Object.assign(new Error('deadlock detected'), { code: '40P01' })
    : Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });
}

/**
 * Issue 18, item 1: work the engine undid because of concurrent work (PostgreSQL 40P01 and 40001,
 * SQLite's SQLITE_BUSY) is run again by the one transaction helper, a bounded number of times,
 * then refused as TemporarilyUnavailable; single statements outside transactions too.
 */
describeEachDialect(
  'transient database failures',
  (database) => {
    let db: Database;
    let items: ItemStore;
    const dialect = () => database().dialect;
    /** Another handle on the same database (another process), retrying `retries` times. */
    const handle = (retries: number) =>
      openDatabase({ ...database().config, retries }, silentLogger);

    before(async () => {
      db = database().db;
      await db.schema.createTable('items', (t) => t.integer('id').primary());
      items = new ItemStore(db);
    });

    beforeEach(async () => {
      await db('items').delete();
    });

    it('runs a transaction the engine undid again, and it commits once', async () => {
      let runs = 0;
      const outcome = await items.inTransaction(async (store) => {
        runs += 1;
        await store.insert(runs);
        if (runs < 3) throw transientError(dialect());
        return 'committed';
      });
      assert.equal(outcome, 'committed');
      assert.equal(runs, 3);
      assert.deepEqual(await items.ids(), [3], 'the undone runs left nothing');
    });

    it('refuses as TemporarilyUnavailable when the failure persists, having written nothing', async () => {
      const twice = handle(2);
      try {
        let runs = 0;
        const refused = await new ItemStore(twice)
          .inTransaction(async (store) => {
            runs += 1;
            await store.insert(runs);
            throw transientError(dialect());
          })
          .catch((error: unknown) => error);
        assert.ok(refused instanceof TemporarilyUnavailable, String(refused));
        assert.equal((refused.cause as { code?: string }).code, transientError(dialect()).code);
        assert.equal(runs, 3, 'the first run and two retries');
        assert.deepEqual(await items.ids(), []);
      } finally {
        await twice.destroy();
      }
    });

    it('does not run again work that failed for any other reason', async () => {
      await items.insert(1);
      let runs = 0;
      await assert.rejects(
        items.inTransaction(async (store) => {
          runs += 1;
          await store.insert(1);
        }),
        (error: unknown) => !(error instanceof TemporarilyUnavailable),
      );
      assert.equal(runs, 1);
    });

    it('leaves a joined transaction to its owner, which runs the whole of it again', async () => {
      let outer = 0;
      let inner = 0;
      await items.inTransaction(async (store, tx) => {
        outer += 1;
        await store.insert(outer * 10);
        await new ItemStore(tx).inTransaction(async (joined) => {
          inner += 1;
          await joined.insert(outer * 10 + 1);
          if (inner === 1) throw transientError(dialect());
        });
      });
      assert.deepEqual([outer, inner], [2, 2]);
      assert.deepEqual(await items.ids(), [20, 21]);
    });

    it("retries on the engine's own report, and single statements outside transactions", async function () {
      this.timeout(30_000);
      if (dialect() === 'postgres') {
        // Two transactions lock two rows in opposite orders: PostgreSQL undoes one (40P01) after
        // deadlock_timeout, and the helper runs it again once the other has committed.
        await items.insert(1);
        await items.insert(2);
        let bothHoldOne = () => {};
        let held = 0;
        const barrier = new Promise<void>((resolve) => (bothHoldOne = resolve));
        let runs = 0;
        const lockBoth = (first: number, second: number) =>
          items.inTransaction(async (store) => {
            runs += 1;
            await store.lock(first);
            if (++held === 2) bothHoldOne();
            await barrier;
            await store.lock(second);
          });
        await Promise.all([lockBoth(1, 2), lockBoth(2, 1)]);
        assert.equal(runs, 3, 'one of the two was undone and run again');

        // A statement the server refuses with either code is run again, then refused for good.
        await db.raw('create sequence forced_runs');
        for (const errcode of ['deadlock_detected', 'serialization_failure']) {
          const thrice = handle(2);
          try {
            const refused = await thrice
              .raw(
                `do $$ begin perform nextval('forced_runs'); ` +
                  `raise exception 'forced' using errcode = '${errcode}'; end $$`,
              )
              .catch((error: unknown) => error);
            assert.ok(refused instanceof TemporarilyUnavailable, String(refused));
          } finally {
            await thrice.destroy();
          }
        }
        const { rows } = await db.raw('select last_value from forced_runs');
        assert.equal(Number(rows[0].last_value), 6, 'three runs of each statement');
        // Failing once, then succeeding: answered as if nothing had happened.
        await db.raw(
          `do $$ begin if nextval('forced_runs') = 7 then ` +
            `raise exception 'forced' using errcode = 'deadlock_detected'; end if; end $$`,
        );
        return;
      }
      // Another process holds SQLite's write lock past the busy timeout (5 s): a statement that
      // may retry gets through once it is released; one that may not is refused.
      const other = handle(0);
      const patient = handle(3);
      const impatient = handle(0);
      try {
        let locked = () => {};
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        const holder = new ItemStore(other).inTransaction(async (store) => {
          await store.insert(100);
          locked();
          await new Promise((resolve) => setTimeout(resolve, 6_000));
        });
        await isLocked;
        const [succeeded, refused] = await Promise.all([
          new ItemStore(patient).insert(1),
          new ItemStore(impatient).insert(2).catch((error: unknown) => error),
        ]);
        await holder;
        assert.equal(succeeded, undefined);
        assert.ok(refused instanceof TemporarilyUnavailable, String(refused));
        assert.deepEqual(await items.ids(), [1, 100]);
      } finally {
        await Promise.all([other.destroy(), patient.destroy(), impatient.destroy()]);
      }
    });
  },
  { migrate: false },
);
