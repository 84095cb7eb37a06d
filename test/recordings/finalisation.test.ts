import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ManualClock } from '../../src/clock.js';
import type { RecordingRow } from '../../src/db/rows.js';
import { composeLifecycle } from '../../src/interviews/lifecycle/compose.js';
import { RecordingFiles } from '../../src/recordings/recording-files.js';
import {
  LEFT_OVER_AFTER_MS,
  RecordingFinalisation,
} from '../../src/recordings/recording-finalisation.js';
import { RecordingFinalisationStore } from '../../src/recordings/recording-finalisation-store.js';
import type { WebhookNotice } from '../../src/webhooks/notice.js';
import type { WebhookOutbox } from '../../src/webhooks/outbox.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { insertEventGraph, insertTenant } from '../support/interview-fixtures.js';
import { silentLogger } from '../support/logger.js';
import { temporaryRecordingsDir } from './interview-in-progress.js';
import { webmSummary } from './webm-summary.js';

/** Four seconds of Chromium's fake camera and microphone, as MediaRecorder wrote them. */
const FAKE_CAMERA_WEBM = readFileSync(new URL('./fixtures/fake-camera.webm', import.meta.url));
/** Three seconds of a canvas with alpha: Chrome writes its frames as BlockGroups. */
const ALPHA_CANVAS_WEBM = readFileSync(new URL('./fixtures/alpha-canvas.webm', import.meta.url));

/** Notices the finalisation records, kept in memory (committed or not: the test reads after). */
class NoticeLog implements WebhookOutbox {
  readonly notices: WebhookNotice[] = [];
  async record(notice: WebhookNotice): Promise<void> {
    this.notices.push(notice);
  }
}

/**
 * Finalising a stopped recording (src/recordings/recording-finalisation.ts): a seekable copy
 * with Duration and Cues, served instead of the recorded file, announced exactly once; and a
 * rewrite that fails at any point leaves the recorded file served and whole.
 */
describeEachDialect('recordings: finalisation', (database) => {
  let dir: string;
  beforeEach(() => {
    dir = temporaryRecordingsDir();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const STOPPED_AT = Date.UTC(2027, 2, 1, 10, 0);

  /** A stopped recording of `content` (its file written), and a finaliser over the real store. */
  async function stopped(content: Buffer, clock = new ManualClock(STOPPED_AT + 1000)) {
    const { db } = database();
    const graph = await insertEventGraph(db, await insertTenant(db, 'finalise'));
    const files = new RecordingFiles(dir);
    const id = randomUUID();
    await db('recordings').insert({
      id,
      event_id: graph.event.id,
      record_id: graph.record.id,
      started_by: graph.interviewers[0]!.id,
      token_hash: randomUUID(),
      token_sealed: 'sealed',
      bytes: content.length,
      chunks: 1,
      status: 'stopped',
      started_at: STOPPED_AT - 60_000,
      stopped_at: STOPPED_AT,
      deleted_at: null,
    });
    const recorded = files.absolute(files.relativePath(graph.event.id, id));
    mkdirSync(dirname(recorded), { recursive: true });
    // An unacknowledged tail (a chunk written but never committed) is never part of the copy.
    writeFileSync(recorded, Buffer.concat([content, randomBytes(50)]));
    const log = new NoticeLog();
    const finaliser = () =>
      new RecordingFinalisation({
        store: new RecordingFinalisationStore(db),
        files,
        lifecycle: composeLifecycle(testSharedDependencies(db, { clock }), { outbox: log })
          .recordings,
        logger: silentLogger,
      });
    const row = async (): Promise<RecordingRow> => db('recordings').where({ id }).first();
    return { id, graph, files, recorded, log, finaliser, row, clock };
  }

  it('writes Duration and Cues, serves the copy at its length, deletes the recorded file, and announces it once', async () => {
    const { id, graph, files, recorded, log, finaliser, row } = await stopped(FAKE_CAMERA_WEBM);
    assert.equal(await finaliser().finalise(id), true);

    const final = await row();
    assert.ok(final.seekable);
    assert.equal(Number(final.finalised_at), STOPPED_AT + 1000);
    const served = files.absolute(files.servedPath(final));
    assert.equal(served, files.absolute(files.seekablePath(graph.event.id, id)));
    const copy = readFileSync(served);
    assert.equal(Number(final.bytes), copy.length);
    assert.equal(existsSync(recorded), false, 'the recorded file is deleted once the copy serves');

    const before = webmSummary(FAKE_CAMERA_WEBM);
    const after = webmSummary(copy);
    assert.equal(before.durationMs, null);
    assert.equal(before.cues.length, 0);
    // About four seconds of fake camera (the last frame's time, plus one frame).
    assert.ok(after.durationMs! > 3500 && after.durationMs! < 4500, String(after.durationMs));
    assert.equal(after.cues.length, before.clusters.length);
    // Every cue points at a cluster of the copy, at that cluster's time.
    for (const [index, cue] of after.cues.entries()) {
      const cluster = after.clusters[index]!;
      assert.equal(cue.position, cluster.position);
      assert.ok(cue.timeMs >= cluster.timeMs, `cue ${index}`);
    }
    // The clusters themselves are the recorded bytes, unchanged.
    const firstCluster = FAKE_CAMERA_WEBM.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    assert.deepEqual(
      copy.subarray(copy.length - (FAKE_CAMERA_WEBM.length - firstCluster)),
      FAKE_CAMERA_WEBM.subarray(firstCluster),
    );

    assert.deepEqual(
      log.notices.map((notice) => [notice.type, notice.subject, notice.data.recordId]),
      [['interview.recording.available.v1', graph.event.id, graph.record.id]],
    );
    assert.equal(await finaliser().finalise(id), false, 'final already: nothing again');
    assert.equal(log.notices.length, 1);
  });

  it('leaves the recorded file served and whole when the rewrite fails, and the sweeper finishes it later', async () => {
    const { id, graph, files, recorded, log, finaliser, row, clock } =
      await stopped(FAKE_CAMERA_WEBM);
    const original = readFileSync(recorded);
    // The copy's name is taken by a directory: the rename at the rewrite's end fails.
    const copyPath = files.absolute(files.seekablePath(graph.event.id, id));
    mkdirSync(join(copyPath, 'blocker'), { recursive: true });

    await assert.rejects(finaliser().finalise(id));
    const unfinal = await row();
    assert.equal(unfinal.finalised_at, null);
    assert.ok(!unfinal.seekable);
    assert.equal(Number(unfinal.bytes), FAKE_CAMERA_WEBM.length);
    assert.equal(files.servedPath(unfinal), files.relativePath(graph.event.id, id));
    assert.deepEqual(readFileSync(recorded), original, 'the recorded file is untouched');
    assert.deepEqual(
      readdirSync(dirname(recorded)).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file is left behind',
    );
    assert.equal(log.notices.length, 0, 'nothing is announced before it is final');

    rmSync(copyPath, { recursive: true });
    // Too soon after the stop for the sweeper: the stopping process may still be at it.
    assert.equal(await finaliser().finaliseLeftOver(STOPPED_AT + LEFT_OVER_AFTER_MS - 1), 0);
    clock.set(STOPPED_AT + LEFT_OVER_AFTER_MS);
    assert.equal(await finaliser().finaliseLeftOver(clock.now()), 1);
    assert.ok((await row()).seekable);
    assert.equal(log.notices.length, 1);
    assert.equal(await finaliser().finaliseLeftOver(clock.now()), 0);
  });

  it('keeps serving the recorded file when a whole copy was written but the row never said so', async () => {
    const { id, graph, files, finaliser, row, log } = await stopped(FAKE_CAMERA_WEBM);
    // A crash between the rename and the commit: the copy exists, the row serves the recording.
    const copyPath = files.absolute(files.seekablePath(graph.event.id, id));
    writeFileSync(copyPath, randomBytes(100));
    assert.equal(files.servedPath(await row()), files.relativePath(graph.event.id, id));
    // Finalising again writes the copy anew.
    assert.equal(await finaliser().finalise(id), true);
    assert.notEqual(webmSummary(readFileSync(copyPath)).durationMs, null);
    assert.equal(log.notices.length, 1);
  });

  it('cues and times a recording of BlockGroups (a canvas with alpha) too', async () => {
    const { id, graph, files, finaliser, row } = await stopped(ALPHA_CANVAS_WEBM);
    assert.deepEqual(webmSummary(ALPHA_CANVAS_WEBM).cues, []);
    assert.equal(await finaliser().finalise(id), true);
    assert.ok((await row()).seekable);
    const after = webmSummary(readFileSync(files.absolute(files.seekablePath(graph.event.id, id))));
    assert.ok(after.durationMs! > 2500 && after.durationMs! < 3500, String(after.durationMs));
    assert.deepEqual(
      after.cues.map((cue) => cue.position),
      after.clusters.map((cluster) => cluster.position),
    );
  });

  it('makes a recording that is no WebM final as recorded, still announced once', async () => {
    const content = randomBytes(3000);
    const { id, graph, files, recorded, log, finaliser, row } = await stopped(content);
    assert.equal(await finaliser().finalise(id), true);
    const final = await row();
    assert.ok(!final.seekable);
    assert.notEqual(final.finalised_at, null);
    assert.equal(Number(final.bytes), content.length);
    assert.equal(files.servedPath(final), files.relativePath(graph.event.id, id));
    assert.ok(existsSync(recorded));
    assert.equal(log.notices.length, 1);
  });

  it('counts one of several finalisers working on the recording at once', async () => {
    const { id, finaliser, log, row } = await stopped(FAKE_CAMERA_WEBM);
    const outcomes = await Promise.all(
      [finaliser(), finaliser(), finaliser()].map((f) => f.finalise(id)),
    );
    assert.equal(outcomes.filter(Boolean).length, 1, String(outcomes));
    assert.ok((await row()).seekable);
    assert.equal(log.notices.length, 1);
  });
});
