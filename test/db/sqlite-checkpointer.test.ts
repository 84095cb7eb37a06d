import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { SqliteCheckpointer } from '../../src/db/dialects/sqlite-checkpointer.js';
import {
  releaseShmDescriptor,
  shmDescriptor,
  WalIndex,
} from '../../src/db/dialects/sqlite-wal-index.js';
import { createLogger } from '../../src/logging.js';

/** A small threshold, so that a few megabytes of writes cross it many times. */
const PAGES = 200;
const PAGE_BYTES = 4096;
/** The writer's own limit while the thread runs (sqlite-checkpointer.ts WRITER_LIMIT_FACTOR). */
const WRITER_LIMIT = 4 * PAGES;
/**
 * What the WAL may reach: the writes' gate (sqlite-checkpointer.ts WRITE_GATE_FACTOR), and a
 * few commits past it. Not the writer's own checkpoint limit: it gives up while the thread holds
 * SQLite's checkpointer lock, which a thread off the CPU mid-checkpoint on a loaded machine can
 * do for long. Without checkpoints, the writes below would make the WAL about 5 times this long.
 */
const WAL_BOUND_BYTES = (8 * PAGES + 100) * (PAGE_BYTES + 24);
/** Rows of 2 KiB, a WAL frame or more each. */
const ROW = 'x'.repeat(2048);
const ROWS = 8000;

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

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SQLite checkpoints off the event loop', function () {
  this.timeout(60_000);
  let directory: string;
  let filename: string;
  let db: Database;
  let lines: Array<{ level: number; msg: string }>;

  const checkpointerOf = (handle: Database) =>
    (handle.client as { checkpointer?: SqliteCheckpointer }).checkpointer;
  /** The writer connection's own automatic checkpoint threshold. */
  const writerAutocheckpoint = async (handle: Database = db) => {
    const rows = (await handle.raw('PRAGMA wal_autocheckpoint')) as Array<Record<string, number>>;
    return rows[0]!.wal_autocheckpoint;
  };
  let index: WalIndex | undefined;
  let indexFd: number | undefined;
  // Through the process's descriptor: closing one of our own could drop SQLite's locks.
  const walIndex = () => (index ??= new WalIndex((indexFd = shmDescriptor(filename))));
  const walBytes = () => (existsSync(`${filename}-wal`) ? statSync(`${filename}-wal`).size : 0);
  const threadRunning = () =>
    until(async () => (await writerAutocheckpoint()) === WRITER_LIMIT, 'offloaded');

  /**
   * `count` single-row commits; answers the largest WAL file seen and how many times the WAL
   * started over from its beginning (its end moved back).
   */
  async function write(count: number, handle: Database = db) {
    let largest = 0;
    let restarts = 0;
    let lastEnd = 0;
    for (let i = 0; i < count; i++) {
      await handle('rows').insert({ body: ROW });
      if (i % 20 !== 0) continue;
      largest = Math.max(largest, walBytes());
      const end = walIndex().read()?.lastFrame ?? lastEnd;
      if (end < lastEnd) restarts += 1;
      lastEnd = end;
    }
    return { largest: Math.max(largest, walBytes()), restarts };
  }

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'hpa-checkpoint-'));
    filename = join(directory, 'db.sqlite');
    const captured = capturedLogger();
    lines = captured.lines;
    db = openDatabase(
      { client: 'sqlite', filename, readConnections: 1, checkpointPages: PAGES },
      captured.logger,
    );
    await db.schema.createTable('rows', (t) => {
      t.increments('id');
      t.text('body');
    });
  });

  afterEach(async () => {
    await db.destroy();
    if (indexFd !== undefined) releaseShmDescriptor(filename, indexFd);
    index = undefined;
    indexFd = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('leaves checkpoints to the thread once it runs, the writer keeping a limit', async () => {
    // Until the thread runs, the writer checkpoints as SQLite would.
    assert.equal(await writerAutocheckpoint(), PAGES);
    await threadRunning();
    assert.ok(checkpointerOf(db)?.runningThread());
  });

  it('keeps the WAL bounded under sustained writes, checkpointed by the thread', async () => {
    await threadRunning();
    const { largest, restarts } = await write(ROWS);
    assert.ok(largest <= WAL_BOUND_BYTES, `WAL reached ${largest} bytes, bound ${WAL_BOUND_BYTES}`);
    assert.ok(restarts >= 4, `the WAL started over ${restarts} times`);
    assert.equal(await writerAutocheckpoint(), WRITER_LIMIT);
    // Nothing failed; the writes' gate may have been met on a loaded machine (a warning).
    assert.deepEqual(
      lines.filter((line) => line.level >= 50).map((line) => line.msg),
      [],
    );
  });

  it('starts a thread that died again, logged, the writer checkpointing meanwhile', async () => {
    await threadRunning();
    const first = checkpointerOf(db)!.runningThread()!;
    await first.terminate();
    await until(async () => (await writerAutocheckpoint()) === PAGES, 'the writer took over');
    assert.ok(
      lines.some((line) => line.level === 50 && /checkpointer thread ended/.test(line.msg)),
      JSON.stringify(lines),
    );
    // SQLite's own checkpoint on the writer bounds the WAL while no thread runs.
    const meanwhile = await write(1500);
    assert.ok(
      meanwhile.largest <= WAL_BOUND_BYTES,
      `WAL reached ${meanwhile.largest} bytes without a thread`,
    );

    await threadRunning();
    const second = checkpointerOf(db)!.runningThread();
    assert.ok(second && second !== first, 'a new thread runs');
    const after = await write(ROWS);
    assert.ok(
      after.largest <= WAL_BOUND_BYTES,
      `WAL reached ${after.largest} bytes after the restart, started over ${after.restarts} times`,
    );
    assert.ok(after.restarts >= 4, `the WAL started over ${after.restarts} times`);
  });

  it('empties the WAL file once nobody has committed for a while', async function () {
    this.timeout(30_000);
    await threadRunning();
    await write(300);
    assert.ok(walBytes() > 0);
    await until(() => walBytes() === 0, 'the WAL file is empty', 15_000);
    // And the data is all there, in the database file.
    assert.deepEqual(await db('rows').count({ n: '*' }), [{ n: 300 }]);
  });

  it('stops its thread on destroy, every time, without delaying it', async () => {
    for (let round = 0; round < 5; round++) {
      const handle = openDatabase(
        { client: 'sqlite', filename, readConnections: 1, checkpointPages: PAGES },
        createLogger('silent'),
      );
      await until(async () => (await writerAutocheckpoint(handle)) === WRITER_LIMIT, 'offloaded');
      const thread = checkpointerOf(handle)!.runningThread()!;
      let exitCode: number | undefined;
      thread.on('exit', (code) => (exitCode = code));
      await write(50, handle);
      const started = Date.now();
      await handle.destroy();
      assert.ok(Date.now() - started < 1000, `destroy took ${Date.now() - started} ms`);
      await until(() => exitCode !== undefined, 'the thread exited');
      // It ended on its own, its connection closed, not terminated (exit code 1).
      assert.equal(exitCode, 0);
      assert.equal(checkpointerOf(handle)!.runningThread(), undefined);
    }
  });

  it('leaves checkpoints to SQLite on the writer with checkpointPages 0', async () => {
    const handle = openDatabase(
      { client: 'sqlite', filename, readConnections: 1, checkpointPages: 0 },
      createLogger('silent'),
    );
    try {
      assert.equal(checkpointerOf(handle), undefined);
      assert.equal(await writerAutocheckpoint(handle), 1000);
    } finally {
      await handle.destroy();
    }
  });
});
