import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/db/database.js';
import { Store } from '../../src/db/store.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';

const BY_ID = 'select t.* from shaped_items t where t.id = ?';

/** A store that reads one scratch table with SQL built once (Dialect.select). */
class ShapedStore extends Store {
  byId(id: number): Promise<Array<Record<string, unknown>>> {
    return this.dialect.select(this.db, BY_ID, [id]);
  }
}

/**
 * Dialect.select runs SQL text built once per shape. On PostgreSQL it runs as a named prepared
 * statement, parsed and planned once per connection (src/db/dialects/postgres-prepared.ts): the
 * answers must be those of a plain statement, a statement each, also after the table changed
 * shape under the prepared statement.
 */
describeEachDialect('selects of SQL built once per shape', (database) => {
  // One connection, so that what the server keeps for a connection can be looked at.
  let db: Database;
  let store: ShapedStore;

  before(async () => {
    const { config } = database();
    db = openDatabase(
      config.client === 'postgres' ? { ...config, poolMax: 1 } : config,
      silentLogger,
    );
    await db.schema.createTable('shaped_items', (t) => {
      t.integer('id').primary();
      t.string('label').notNullable();
    });
    await db('shaped_items').insert([
      { id: 1, label: 'one' },
      { id: 2, label: 'two' },
    ]);
    store = new ShapedStore(db);
  });
  after(async () => {
    await db?.destroy();
  });

  it('answers as a plain statement does, one statement per call', async () => {
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    db.on('query', record);
    try {
      for (let i = 0; i < 12; i += 1) {
        assert.deepEqual(await store.byId(1 + (i % 2)), [
          { id: 1 + (i % 2), label: i % 2 ? 'two' : 'one' },
        ]);
      }
      assert.deepEqual(await store.byId(3), []);
    } finally {
      db.off('query', record);
    }
    assert.equal(statements.length, 13);
  });

  it('is kept prepared on PostgreSQL, once per connection', async function () {
    if (database().dialect !== 'postgres') this.skip();
    await store.byId(1);
    const { rows } = await db.raw<{ rows: Array<{ statement: string }> }>(
      'select statement from pg_prepared_statements',
    );
    assert.deepEqual(
      rows.map((row) => row.statement),
      ['select t.* from shaped_items t where t.id = $1'],
    );
  });

  it('still answers after a column is added under the prepared statement', async () => {
    await store.byId(1);
    await db.schema.alterTable('shaped_items', (t) => {
      t.string('note').nullable();
    });
    await db('shaped_items').where({ id: 2 }).update({ note: 'added' });
    assert.deepEqual(await store.byId(2), [{ id: 2, label: 'two', note: 'added' }]);
    assert.deepEqual(await store.byId(1), [{ id: 1, label: 'one', note: null }]);
  });

  it('still answers after the server dropped its prepared statements, as a pooler may', async () => {
    await store.byId(1);
    if (database().dialect === 'postgres') await db.raw('deallocate all');
    const plain = await db('shaped_items').where({ id: 1 });
    assert.deepEqual(await store.byId(1), plain);
    assert.deepEqual(await store.byId(1), plain);
  });
});
