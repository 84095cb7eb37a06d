import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/db/database.js';
import { DIALECTS, dialectFor, dialectOf } from '../../src/db/dialects/index.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../src/db/errors.js';
import { Store } from '../../src/db/store.js';
import { inTransaction, readSnapshot } from '../../src/db/transactions.js';
import { DIALECTS as TEST_MATRIX, describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';

/** A store of one scratch table, to drive the transaction helper and the dialect's locks. */
class ItemStore extends Store {
  async insert(id: number, parentId: number | null = null): Promise<void> {
    await this.db('items').insert({ id, parent_id: parentId });
  }

  async ids(): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.db('items').orderBy('id').select('id');
    return rows.map((row) => Number(row.id));
  }

  async lock(id: number): Promise<void> {
    await this.forUpdate(this.db('items').where({ id }).first('id'));
  }

  async hold(id: number): Promise<void> {
    await this.forShare(this.db('items').where({ id }).first('id'));
  }

  async touch(id: number): Promise<void> {
    await this.db('items').where({ id }).update({ parent_id: null });
  }
}

describe('dialects', () => {
  it('are one for each engine a configuration can name, and each is in the test matrix', () => {
    const names = DIALECTS.map((dialect) => dialect.name).sort();
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(names, [...TEST_MATRIX].sort());
  });
});

describeEachDialect(
  'one transaction idiom',
  (database) => {
    let db: Database;
    let items: ItemStore;

    before(async () => {
      db = database().db;
      await db.schema.createTable('items', (t) => {
        t.integer('id').primary();
        t.integer('parent_id').nullable().references('id').inTable('items');
      });
      items = new ItemStore(db);
    });

    beforeEach(async () => {
      await db('items').delete();
    });

    it('knows its engine from the handle, in and out of transactions', async () => {
      const expected = dialectFor(database().config);
      assert.equal(dialectOf(db), expected);
      await items.inTransaction(async (_store, tx) => assert.equal(dialectOf(tx), expected));
    });

    it('commits whole or rolls back whole', async () => {
      await items.inTransaction(async (store) => {
        await store.insert(1);
        await store.insert(2);
      });
      await assert.rejects(
        items.inTransaction(async (store) => {
          await store.insert(3);
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.deepEqual(await items.ids(), [1, 2]);
    });

    it('lets other stores join with tx, and a nested inTransaction joins the outer one', async () => {
      const other = new ItemStore(db);
      await assert.rejects(
        items.inTransaction(async (store, tx) => {
          await store.insert(1);
          await other.on(tx).insert(2);
          // A store method that opens its own transaction composes into this one.
          await other.on(tx).inTransaction((nested) => nested.insert(3));
          assert.deepEqual(await other.on(tx).ids(), [1, 2, 3]);
          throw new Error('undo all three');
        }),
        /undo all three/,
      );
      assert.deepEqual(await items.ids(), []);
    });

    it('reads one snapshot while another process commits, and blocks no writer', async () => {
      await items.insert(1);
      const otherProcess = openDatabase(database().config, silentLogger);
      try {
        const seen = await items.readSnapshot(async (store) => {
          const before = await store.ids();
          // Another process writes meanwhile: it does not wait for the snapshot to end.
          await new ItemStore(otherProcess).insert(2);
          return [before, await store.ids()];
        });
        assert.deepEqual(seen, [[1], [1]]);
        assert.deepEqual(await items.ids(), [1, 2]);
      } finally {
        await otherProcess.destroy();
      }
    });

    it('refuses to mix a write and a read snapshot in one transaction', async () => {
      await assert.rejects(
        items.readSnapshot((store) => store.inTransaction((inner) => inner.insert(1))),
        /a write cannot join a read snapshot transaction/,
      );
      await assert.rejects(
        items.inTransaction((store) => store.readSnapshot((inner) => inner.ids())),
        /a read snapshot cannot join a write transaction/,
      );
      await assert.rejects(
        inTransaction(db, (tx) => readSnapshot(tx, async () => undefined)),
        /cannot join/,
      );
    });

    it('locks a row for the rest of a write transaction, and only inside one', async () => {
      await items.insert(1);
      await assert.rejects(items.lock(1), /forUpdate outside a write transaction/);
      await assert.rejects(
        items.readSnapshot((store) => store.lock(1)),
        /forUpdate outside a write transaction/,
      );
      const order: string[] = [];
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const firstLocked = new Promise<void>((resolve) => (locked = resolve));
      const first = items.inTransaction(async (store) => {
        await store.lock(1);
        order.push('first locked');
        locked();
        await released;
        order.push('first commits');
      });
      await firstLocked;
      const second = items.inTransaction(async (store) => {
        await store.lock(1);
        order.push('second locked');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await Promise.all([first, second]);
      assert.deepEqual(order, ['first locked', 'first commits', 'second locked']);
    });

    it('holds a row against writers until the holding transaction ends', async () => {
      await items.insert(1);
      const order: string[] = [];
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let held = () => {};
      const isHeld = new Promise<void>((resolve) => (held = resolve));
      const holder = items.inTransaction(async (store) => {
        await store.hold(1);
        held();
        await released;
        order.push('holder ends');
      });
      await isHeld;
      const writer = items.inTransaction(async (store) => {
        await store.touch(1);
        order.push('writer wrote');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await Promise.all([holder, writer]);
      assert.deepEqual(order, ['holder ends', 'writer wrote']);
    });

    it("recognises the engine's constraint violations", async () => {
      await items.insert(1);
      const unique = await items.insert(1).catch((error: unknown) => error);
      assert.ok(isUniqueViolation(unique), String(unique));
      assert.ok(!isForeignKeyViolation(unique));
      const foreignKey = await items.insert(2, 99).catch((error: unknown) => error);
      assert.ok(isForeignKeyViolation(foreignKey), String(foreignKey));
      assert.ok(!isUniqueViolation(foreignKey));
      assert.ok(!isUniqueViolation(new Error('UNIQUE')) && !isForeignKeyViolation(undefined));
    });
  },
  { migrate: false },
);
