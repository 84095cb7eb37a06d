import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DatabaseConfig } from '../../src/config.js';
import { openDatabase, waitForIdlePool, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { Store } from '../../src/db/store.js';
import { inTransaction } from '../../src/db/transactions.js';
import { Gate } from '../support/gated-token-service.js';
import { silentLogger } from '../support/logger.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

/** A store of one scratch table. */
class ItemStore extends Store {
  async insert(id: number): Promise<void> {
    await this.db('items').insert({ id, label: `item ${id}` });
  }

  async find(id: number): Promise<{ id: number; label: string } | undefined> {
    return this.db('items').where({ id }).first();
  }

  async ids(): Promise<number[]> {
    return (await this.db('items').orderBy('id').pluck('id')).map(Number);
  }
}

/**
 * Which connection each statement ran on, by the id knex reports in its query events
 * (`__knexUid`): the reader connections (src/db/dialects/sqlite-readers.ts) are opened beside
 * knex's pool and tagged `__knexUid_reader<n>`.
 */
function connectionsOf(db: Database) {
  const statements: Array<{ sql: string; onWriter: boolean }> = [];
  const listener = (query: { sql: string; __knexUid?: string }) =>
    statements.push({ sql: query.sql, onWriter: !query.__knexUid?.includes('_reader') });
  db.on('query', listener);
  return {
    statements,
    reads: () => statements.filter((s) => /^select/i.test(s.sql)),
    writes: () => statements.filter((s) => /^(insert|update|delete)/i.test(s.sql)),
    stop: () => db.off('query', listener),
  };
}

async function createItems(db: Database): Promise<void> {
  await db.schema.createTable('items', (t) => {
    t.integer('id').primary();
    t.string('label').notNullable();
  });
}

/**
 * SQLite reader connections: plain reads outside a transaction run on read-only connections
 * beside the one writer (src/db/dialects/sqlite-client.ts, sqlite-readers.ts).
 */
describe('SQLite reader connections', () => {
  let directory: string;
  let config: DatabaseConfig;
  let db: Database;
  let items: ItemStore;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'hpa-readers-'));
    config = { client: 'sqlite', filename: join(directory, 'db.sqlite'), readConnections: 4 };
    db = openDatabase(config, silentLogger);
    await createItems(db);
    items = new ItemStore(db);
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  it('a read right after a committed write sees it, though it runs on another connection', async () => {
    const seen = connectionsOf(db);
    for (let id = 1; id <= 100; id += 1) {
      await items.insert(id);
      assert.deepEqual(
        await items.find(id),
        { id, label: `item ${id}` },
        `item ${id} is read back`,
      );
    }
    // The same, many at once.
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const id = 1000 + i;
        await items.insert(id);
        assert.ok(await items.find(id), `item ${id} is read back`);
      }),
    );
    seen.stop();
    assert.ok(
      seen.reads().length >= 200 && seen.reads().every((s) => !s.onWriter),
      'the reads ran on the reader connections',
    );
    assert.ok(
      seen.writes().every((s) => s.onWriter),
      'the writes ran on the writer',
    );
    assert.equal((await items.ids()).length, 200);
  });

  it('reads outside a transaction complete while a write transaction is held open', async () => {
    await items.insert(1);
    const holding = new Gate();
    let committed = false;
    const transaction = inTransaction(db, async (tx) => {
      await new ItemStore(tx).insert(2);
      // Inside the transaction, the writer sees its own uncommitted row.
      assert.deepEqual(await new ItemStore(tx).ids(), [1, 2]);
      await holding.pass();
    }).then(() => {
      committed = true;
    });
    await holding.reached;
    // Never left hanging: if the reads queued behind the writer, the gate opens late and the
    // order assertion below fails instead of the test timing out.
    const fallback = setTimeout(() => holding.open(), 30_000);
    try {
      const reads = await Promise.all(Array.from({ length: 50 }, () => items.ids()));
      assert.equal(committed, false, 'the reads resolved before the transaction committed');
      for (const ids of reads) assert.deepEqual(ids, [1], 'no uncommitted row is seen');
    } finally {
      clearTimeout(fallback);
      holding.open();
    }
    await transaction;
    assert.equal(committed, true);
    assert.deepEqual(await items.ids(), [1, 2]);
  });

  it('a write through the query builder outside a transaction runs on the writer', async () => {
    const seen = connectionsOf(db);
    await db('items').insert({ id: 1, label: 'one' });
    await db('items').where({ id: 1 }).update({ label: 'uno' });
    await db('items').insert([
      { id: 2, label: 'two' },
      { id: 3, label: 'three' },
    ]);
    assert.equal(await db('items').where({ id: 3 }).delete(), 1);
    await db('items').insert({ id: 4, label: 'four' }).onConflict('id').merge();
    await db('items').insert({ id: 4, label: 'cuatro' }).onConflict('id').merge();
    await db.raw('update items set label = ? where id = ?', ['dos', 2]);
    seen.stop();
    assert.equal(seen.writes().length, 7);
    assert.ok(
      seen.writes().every((s) => s.onWriter),
      'every write ran on the writer',
    );
    assert.deepEqual(await db('items').orderBy('id').select('id', 'label'), [
      { id: 1, label: 'uno' },
      { id: 2, label: 'dos' },
      { id: 4, label: 'cuatro' },
    ]);
  });

  it('a reader connection refuses writes (query_only), so none can land there by mistake', async () => {
    const seen = connectionsOf(db);
    assert.deepEqual(await db('items').select('id'), []);
    seen.stop();
    assert.ok(
      seen.reads().every((s) => !s.onWriter),
      'a plain read went to a reader',
    );
    const client = db.client as {
      acquireRawConnection(): Promise<{ exec(sql: string): void; close(): void }>;
    };
    // The readers are opened exactly so (sqlite-readers.ts): a raw connection with query_only.
    const raw = await client.acquireRawConnection();
    try {
      raw.exec('PRAGMA query_only = ON');
      assert.throws(
        () => raw.exec("insert into items (id, label) values (9, 'nine')"),
        /readonly/i,
      );
    } finally {
      raw.close();
    }
    assert.equal(await items.find(9), undefined);
  });

  it('shutdown waits for a read in flight on a reader before the pool may close', async () => {
    // A read that takes a while (a recursive count), outside any transaction: on a reader.
    let answered = false;
    const slowRead = db
      .select(
        db.raw(
          '(with recursive c(x) as (select 1 union all select x + 1 from c where x < 300000) ' +
            'select count(*) from c) as n',
        ),
      )
      .then((rows) => {
        answered = true;
        return rows;
      });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await waitForIdlePool(db, 10_000), true);
    assert.equal(answered, true, 'the pool was idle only once the read had answered');
    assert.deepEqual(await slowRead, [{ n: 300000 }]);
  });

  it('destroy() closes the readers: a process that opened, migrated and read exits by itself', async function () {
    this.timeout(60_000);
    const script = join(directory, 'open-read-destroy.mts');
    const src = (path: string) => JSON.stringify(pathToFileURL(join(REPOSITORY, path)).href);
    writeFileSync(
      script,
      `import { openDatabase } from ${src('src/db/database.ts')};
import { migrateToLatest } from ${src('src/db/migrate.ts')};
import { silentLogger } from ${src('test/support/logger.ts')};
const db = openDatabase(
  { client: 'sqlite', filename: ${JSON.stringify(join(directory, 'child.sqlite'))}, readConnections: 4 },
  silentLogger,
);
// The migrator reads through a clone of the client: its readers must be closed too.
await migrateToLatest(db);
await Promise.all(Array.from({ length: 8 }, () => db('users').select('id')));
await db('service_probes').insert({ name: 'child', checked_at: Date.now() });
const [probe] = await db('service_probes').where({ name: 'child' }).select('name');
if (probe?.name !== 'child') throw new Error('the write was not read back');
await db.destroy();
console.log('destroyed');
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: REPOSITORY,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Killed if it hangs: a handle left open after destroy() keeps the event loop alive.
      timeout: 20_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    assert.equal(signal, null, `the process hung after destroy() and was killed\n${output}`);
    assert.equal(code, 0, output);
    assert.match(output, /destroyed/);
  });
});

/** Without reader connections the same work runs, all of it on the writer. */
for (const [title, configOf] of [
  [
    'readConnections: 0',
    (dir: string) => ({ filename: join(dir, 'db.sqlite'), readConnections: 0 }),
  ],
  // Another connection to ':memory:' would open another, empty database: no readers there.
  [':memory:', () => ({ filename: ':memory:', readConnections: 4 })],
] as const) {
  describe(`SQLite without reader connections (${title})`, () => {
    let directory: string;
    let db: Database;

    beforeEach(() => {
      directory = mkdtempSync(join(tmpdir(), 'hpa-no-readers-'));
      db = openDatabase({ client: 'sqlite', ...configOf(directory) }, silentLogger);
    });
    afterEach(async () => {
      await db.destroy();
      rmSync(directory, { recursive: true, force: true });
    });

    it('migrates, writes, reads and runs transactions, every statement on the writer', async () => {
      const seen = connectionsOf(db);
      assert.ok((await migrateToLatest(db)).length > 0);
      await createItems(db);
      const items = new ItemStore(db);
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          await items.insert(i);
          assert.ok(await items.find(i));
        }),
      );
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          inTransaction(db, async (tx) => {
            await new ItemStore(tx).insert(100 + i);
            return new ItemStore(tx).ids();
          }),
        ),
      );
      const reads = await Promise.all(Array.from({ length: 20 }, () => items.ids()));
      seen.stop();
      for (const ids of reads) assert.equal(ids.length, 70);
      assert.ok(seen.statements.length > 0);
      assert.deepEqual(
        seen.statements.filter((s) => !s.onWriter).map((s) => s.sql),
        [],
        'no statement ran off the writer',
      );
      assert.equal((await db('change_epochs').where({ name: 'accounts' })).length, 1);
    });
  });
}
