import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Clock } from '../../src/clock.js';
import { ChunkAppends } from '../../src/recordings/chunk-appends.js';
import { RecordingChunkStore } from '../../src/recordings/recording-chunk-store.js';
import { RecordingFiles } from '../../src/recordings/recording-files.js';
import { RecordingRefused } from '../../src/recordings/recording-refused.js';
import { RecordingStore } from '../../src/recordings/recording-store.js';
import { describeEachDialect } from '../support/databases.js';
import { insertEventGraph, insertTenant } from '../support/interview-fixtures.js';
import { temporaryRecordingsDir } from './interview-in-progress.js';

const CLAIM_MS = 10_000;

/**
 * The two ways a claim's holder can fall behind (a stalled process): it must never write under a
 * claim that may be taken over, nor commit one that was.
 */
describeEachDialect('recordings: a chunk claim whose holder falls behind', (database) => {
  let dir: string;
  beforeEach(() => {
    dir = temporaryRecordingsDir();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A live recording of a new event, and chunk appends over the real stores and files. */
  async function setUp(clock: Clock, files: RecordingFiles) {
    const { db } = database();
    const graph = await insertEventGraph(db, await insertTenant(db, 'claims'));
    const recordingId = randomUUID();
    await db('recordings').insert({
      id: recordingId,
      event_id: graph.event.id,
      record_id: graph.record.id,
      started_by: graph.interviewers[0]!.id,
      token_hash: randomUUID(),
      token_sealed: 'sealed',
      bytes: 0,
      chunks: 0,
      status: 'recording',
      started_at: Date.now(),
      stopped_at: null,
      deleted_at: null,
    });
    const recordings = new RecordingStore(db);
    const appends = new ChunkAppends({
      recordings,
      chunks: new RecordingChunkStore(db),
      files,
      clock,
      maxBytes: 1_000_000,
      maxChunks: 1_000,
      claimMs: CLAIM_MS,
      existing: async (eventId, id) => (await recordings.find(eventId, id))!,
      stop: async () => {},
    });
    const request = {
      eventId: graph.event.id,
      recordingId,
      interviewerId: graph.interviewers[0]!.id,
      seq: 0,
      data: randomBytes(500),
    };
    const row = async () => db('recordings').where({ id: recordingId }).first();
    const chunk = async () => db('recording_chunks').where({ recording_id: recordingId }).first();
    const file = join(dir, graph.event.id, `${recordingId}.webm`);
    return { appends, request, row, chunk, file };
  }

  it('gives up a claim past half its life before writing, and writes under a fresh one', async () => {
    const t0 = Date.now();
    // The claim is made at t0; by the time its holder would write, half the claim's life is gone.
    const times = [t0, t0 + CLAIM_MS / 2];
    const clock = { now: () => (times.length > 1 ? times.shift()! : times[0]!) };
    const files = new RecordingFiles(dir);
    const writes: number[] = [];
    const writeAt = files.writeAt.bind(files);
    files.writeAt = async (eventId, id, at, data) => {
      writes.push(clock.now());
      return writeAt(eventId, id, at, data);
    };
    const { appends, request, row, chunk, file } = await setUp(clock, files);
    await appends.append(request);
    assert.deepEqual(writes, [t0 + CLAIM_MS / 2], 'one write, under the second claim');
    const committed = await chunk();
    assert.equal(Number(committed.claimed_at), t0 + CLAIM_MS / 2);
    assert.notEqual(committed.committed_at, null);
    assert.deepEqual([Number((await row()).chunks), Number((await row()).bytes)], [1, 500]);
    assert.ok(readFileSync(file).equals(request.data));
  });

  it('commits nothing under a claim taken over while it wrote, and says to come back', async function () {
    this.timeout(20_000);
    const clock = { now: () => Date.now() };
    const files = new RecordingFiles(dir);
    const writeAt = files.writeAt.bind(files);
    const successor = randomUUID();
    files.writeAt = async (eventId, id, at, data) => {
      const tailFollows = await writeAt(eventId, id, at, data);
      // Another request takes the claim over while this one is between its write and commit.
      await database()
        .db('recording_chunks')
        .where({ recording_id: id, seq: 0 })
        .update({ claim_id: successor, claimed_at: Date.now() });
      return tailFollows;
    };
    const { appends, request, row, chunk } = await setUp(clock, files);
    await assert.rejects(appends.append(request), (error: unknown) => {
      assert.ok(error instanceof RecordingRefused);
      assert.equal(error.kind, 'conflict');
      assert.equal(error.retryAfterSeconds, 1);
      return true;
    });
    assert.deepEqual([Number((await row()).chunks), Number((await row()).bytes)], [0, 0]);
    const held = await chunk();
    assert.equal(held.claim_id, successor, "the successor's claim stands");
    assert.equal(held.committed_at, null);
  });

  it('cuts the tail past its chunk only while it still holds its claim', async function () {
    this.timeout(20_000);
    const clock = { now: () => Date.now() };
    const tail = randomBytes(2000);

    // Holding its claim: the bytes past its chunk (a crash's leftovers) are cut.
    const held = await setUp(clock, new RecordingFiles(dir));
    mkdirSync(dirname(held.file), { recursive: true });
    writeFileSync(held.file, tail);
    await held.appends.append(held.request);
    assert.ok(readFileSync(held.file).equals(held.request.data));

    // Taken over between its write and its cut: what follows may be a successor's; kept.
    const files = new RecordingFiles(dir);
    const writeAt = files.writeAt.bind(files);
    files.writeAt = async (eventId, id, at, data) => {
      const tailFollows = await writeAt(eventId, id, at, data);
      await database()
        .db('recording_chunks')
        .where({ recording_id: id, seq: 0 })
        .update({ claim_id: randomUUID(), claimed_at: Date.now() });
      return tailFollows;
    };
    const lost = await setUp(clock, files);
    mkdirSync(dirname(lost.file), { recursive: true });
    writeFileSync(lost.file, tail);
    await assert.rejects(lost.appends.append(lost.request), RecordingRefused);
    assert.equal(readFileSync(lost.file).length, tail.length, 'nothing cut');
  });
});
