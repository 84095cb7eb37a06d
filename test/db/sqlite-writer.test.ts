import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { checkWritable, openDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logging.js';

/** A logger whose lines the test can read. */
function capturedLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

describe('SQLite writer: one way to run a transaction', () => {
  let directory: string;
  let db: Database;
  let lines: Array<{ level: number; msg: string }>;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'hpa-writer-'));
    const captured = capturedLogger();
    lines = captured.lines;
    db = openDatabase(
      { client: 'sqlite', filename: join(directory, 'db.sqlite') },
      captured.logger,
    );
    await db.schema.createTable('parents', (t) => t.integer('id').primary());
    await db.schema.createTable('children', (t) => {
      t.integer('id').primary();
      t.integer('parent_id').notNullable().references('id').inTable('parents');
    });
    await db.schema.createTable('service_probes', (t) => {
      t.string('name').primary();
      t.bigInteger('checked_at');
    });
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  /** A handle of its own on the same file, as another process would open it. */
  const anotherProcess = () =>
    openDatabase(
      { client: 'sqlite', filename: join(directory, 'db.sqlite') },
      createLogger('silent'),
    );

  /** A fresh handle on the same file: what a restarted process would read. */
  async function rowsAfterRestart(table: string): Promise<unknown[]> {
    const reopened = anotherProcess();
    try {
      return await reopened(table).select('id').orderBy('id');
    } finally {
      await reopened.destroy();
    }
  }

  it('recovers a connection left inside a transaction nobody owns, loudly', async () => {
    // What rate-limiter-flexible's SQLite store did: a savepoint that never ended.
    await db.raw('SAVEPOINT stray');
    await db.transaction(async (trx) => {
      await trx('parents').insert({ id: 1 });
    });
    assert.ok(
      lines.some((line) => line.level >= 50 && /transaction nobody owns/.test(line.msg)),
      'an error line names the stray transaction',
    );
    await db('parents').insert({ id: 2 });
    assert.deepEqual(await rowsAfterRestart('parents'), [{ id: 1 }, { id: 2 }]);
  });

  it('rolls back a transaction whose COMMIT fails, so the next one starts clean', async () => {
    await db('parents').insert({ id: 1 });
    await assert.rejects(
      db.transaction(async (trx) => {
        // Deferred foreign keys make COMMIT itself fail, which leaves SQLite's transaction open.
        await trx.raw('PRAGMA defer_foreign_keys = ON');
        await trx('children').insert({ id: 10, parent_id: 999 });
      }),
      /FOREIGN KEY/,
    );
    await db.transaction(async (trx) => {
      await trx('children').insert({ id: 11, parent_id: 1 });
    });
    await db('parents').insert({ id: 2 });
    assert.deepEqual(await rowsAfterRestart('children'), [{ id: 11 }]);
    assert.deepEqual(await rowsAfterRestart('parents'), [{ id: 1 }, { id: 2 }]);
  });

  it('keeps concurrent transactions and single statements apart, all of them durable', async () => {
    const work = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0
        ? db('parents').insert({ id: i })
        : db.transaction(async (trx) => {
            await trx('parents').insert({ id: i });
            if (i % 7 === 0) throw new Error('refused');
          }),
    );
    const outcomes = await Promise.allSettled(work);
    const acknowledged = outcomes.flatMap((outcome, i) =>
      outcome.status === 'fulfilled' ? [{ id: i }] : [],
    );
    assert.ok(acknowledged.length > 150);
    await checkWritable(db, Date.now());
    assert.deepEqual(await rowsAfterRestart('parents'), acknowledged);
  });

  it('a write transaction from a second process waits for the first instead of failing', async () => {
    const second = anotherProcess();
    try {
      // Both read, then write: with a deferred BEGIN one of them would fail with SQLITE_BUSY.
      const readThenWrite = (handle: Database, base: number) =>
        Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            handle.transaction(async (trx) => {
              await trx('parents').count({ n: '*' });
              await new Promise((resolve) => setTimeout(resolve, 2));
              await trx('parents').insert({ id: base + i });
            }),
          ),
        );
      await Promise.all([readThenWrite(db, 0), readThenWrite(second, 100)]);
    } finally {
      await second.destroy();
    }
    assert.equal((await rowsAfterRestart('parents')).length, 40);
  });

  it('a read-only transaction reads one snapshot and holds no write lock', async () => {
    const second = anotherProcess();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let reading = () => {};
    const started = new Promise<void>((resolve) => (reading = resolve));
    try {
      const reader = db.transaction(
        async (trx) => {
          const before = await trx('parents').count({ n: '*' });
          reading();
          await released;
          return [before, await trx('parents').count({ n: '*' })];
        },
        { readOnly: true },
      );
      await started;
      // Another process writes while the snapshot is open: no wait for a lock.
      const wrote = await Promise.race([
        second('parents')
          .insert({ id: 1 })
          .then(() => 'written'),
        new Promise((resolve) => setTimeout(() => resolve('blocked'), 2000)),
      ]);
      assert.equal(wrote, 'written');
      release();
      assert.deepEqual(await reader, [[{ n: 0 }], [{ n: 0 }]], 'the snapshot stays as it began');
    } finally {
      release();
      await second.destroy();
    }
  });

  it('waits for the write lock of another process without blocking the event loop', async () => {
    const second = anotherProcess();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    try {
      const holder = second.transaction(async (trx) => {
        await trx('parents').insert({ id: 1 });
        locked();
        await released;
      });
      await isLocked;
      // The driver is synchronous: SQLite's own busy timeout would sleep on this thread, and
      // not one timer would fire until the lock was released.
      let ticks = 0;
      const ticking = setInterval(() => (ticks += 1), 5);
      const waiting = Promise.all([
        db('parents').insert({ id: 2 }),
        db.transaction(async (trx) => {
          await trx('parents').insert({ id: 3 });
        }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      clearInterval(ticking);
      assert.ok(ticks >= 10, `${ticks} timer ticks while the writes waited for the lock`);
      release();
      await holder;
      await waiting;
    } finally {
      release();
      await second.destroy();
    }
    assert.deepEqual(await rowsAfterRestart('parents'), [{ id: 1 }, { id: 2 }, { id: 3 }]);
  });
});
