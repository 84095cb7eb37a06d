import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import {
  admitInterviewee,
  insertOpenEvent,
  interviewerBrowser,
  RecordingClient,
  temporaryRecordingsDir,
  type InterviewInProgress,
} from './interview-in-progress.js';

const CHUNK_MAX = 1000;
const RECORDING_MAX = 5000;
/** More than any other test here sends to one recording. */
const MAX_CHUNKS = 30;

describeEachDialect('recordings: uploads from the interviewer lobby', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let dir: string;
  let tenant: Awaited<ReturnType<typeof insertTenant>>;

  before(async () => {
    tenant = await insertTenant(database().db, 'recordings');
  });
  beforeEach(async () => {
    dir = temporaryRecordingsDir();
    service = await startTestService(database(), {
      env: {
        RECORDINGS_DIR: dir,
        RECORDING_CHUNK_MAX_BYTES: String(CHUNK_MAX),
        RECORDING_MAX_BYTES: String(RECORDING_MAX),
        RECORDING_MAX_CHUNKS: String(MAX_CHUNKS),
      },
    });
  });
  afterEach(async () => {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An event whose interviewee was admitted by Lee; Lee's recording client. */
  async function interviewing(): Promise<{ event: InterviewInProgress; lee: RecordingClient }> {
    const event = await insertOpenEvent(database().db, tenant);
    const browser = await interviewerBrowser(service.url, event, event.emails[0]);
    await admitInterviewee(service.url, event, browser);
    return { event, lee: new RecordingClient(browser, event.interviewerPath) };
  }

  function fileOf(event: InterviewInProgress, id: string): Buffer {
    return readFileSync(join(dir, event.eventId, `${id}.webm`));
  }

  async function row(id: string) {
    return database().db('recordings').where({ id }).first();
  }

  it('starts, appends chunks in order and stops; the file is the chunks one after another', async () => {
    const { event, lee } = await interviewing();
    const started = await lee.start();
    assert.equal(started.status, 201);
    assert.match(started.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await started.json()) as { id: string; chunkUrl: string };
    assert.equal(body.chunkUrl, `${event.interviewerPath}/recordings/${body.id}/chunks`);

    const chunks = [randomBytes(700), randomBytes(1), randomBytes(CHUNK_MAX)];
    for (const [seq, chunk] of chunks.entries()) {
      assert.equal((await lee.chunk(body.id, seq, chunk)).status, 204);
    }
    assert.equal((await lee.stop(body.id)).status, 204);
    assert.equal((await lee.stop(body.id)).status, 204, 'stopping again changes nothing');
    assert.deepEqual(fileOf(event, body.id), Buffer.concat(chunks));
    assert.equal(statSync(join(dir, event.eventId)).mode & 0o777, 0o700);

    const stored = await row(body.id);
    assert.equal(stored.status, 'stopped');
    assert.equal(stored.bytes, 1701);
    assert.equal(stored.chunks, 3);
    const record = await database()
      .db('interview_records')
      .where({ event_id: event.eventId })
      .whereNull('end_at')
      .first();
    assert.equal(stored.record_id, record.id, 'the open record gets the recording');

    const afterStop = await lee.chunk(body.id, 3, randomBytes(10));
    assert.equal(afterStop.status, 409);
    assert.deepEqual(Object.keys((await afterStop.json()) as object), ['error']);
  });

  it('lets exactly one of two interviewers starting at once record', async () => {
    const { event, lee } = await interviewing();
    const samBrowser = await interviewerBrowser(service.url, event, event.emails[1]);
    const sam = new RecordingClient(samBrowser, event.interviewerPath);
    const answers = await Promise.all([lee.start(), sam.start(), lee.start(), sam.start()]);
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    assert.match(((await refused.json()) as { error: string }).error, /already recording/);
    const rows = await database().db('recordings').where({ event_id: event.eventId });
    assert.equal(rows.length, 1);
  });

  it('acknowledges a retried chunk again without appending it, refuses other bytes under its number, and refuses a gap with the number expected', async () => {
    const { event, lee } = await interviewing();
    const id = await lee.started();
    const first = randomBytes(300);
    assert.equal((await lee.chunk(id, 0, first)).status, 204);
    assert.equal((await lee.chunk(id, 0, first)).status, 204, 'the retry is acknowledged');
    const gap = await lee.chunk(id, 2, randomBytes(10));
    assert.equal(gap.status, 409);
    assert.match(gap.headers.get('content-type') ?? '', /^application\/json/);
    const refusal = (await gap.json()) as { error: string; expectedSeq: number };
    assert.equal(refusal.expectedSeq, 1);
    assert.ok(refusal.error.length > 0);
    const old = await lee.chunk(id, 5, randomBytes(10));
    assert.equal(old.status, 409);
    assert.equal(((await old.json()) as { expectedSeq: number }).expectedSeq, 1);
    assert.equal((await lee.chunk(id, 'x1', randomBytes(10))).status, 400);
    assert.equal((await lee.chunk(id, 1, new Uint8Array())).status, 400, 'an empty chunk');
    assert.deepEqual(fileOf(event, id), first);
    assert.equal((await row(id)).chunks, 1);

    const second = randomBytes(200);
    assert.equal((await lee.chunk(id, 1, second)).status, 204);
    assert.equal((await lee.chunk(id, 0, first)).status, 204, 'an older chunk, the same bytes');
    const other = await lee.chunk(id, 0, randomBytes(300));
    assert.equal(other.status, 409, 'an older chunk, other bytes');
    const refused = (await other.json()) as { error: string };
    assert.match(refused.error, /already saved with different content/);
    assert.equal(other.headers.get('retry-after'), null);
    assert.deepEqual(fileOf(event, id), Buffer.concat([first, second]));
    assert.equal((await row(id)).chunks, 2);
  });

  it('refuses a chunk over RECORDING_CHUNK_MAX_BYTES (413), and stops a recording at RECORDING_MAX_BYTES (413)', async () => {
    const { event, lee } = await interviewing();
    const id = await lee.started();
    const tooBig = await lee.chunk(id, 0, randomBytes(CHUNK_MAX + 1));
    assert.equal(tooBig.status, 413);
    assert.ok(((await tooBig.json()) as { error: string }).error);

    const chunks = Array.from({ length: 5 }, () => randomBytes(CHUNK_MAX));
    for (const [seq, chunk] of chunks.entries()) {
      assert.equal((await lee.chunk(id, seq, chunk)).status, 204);
    }
    const over = await lee.chunk(id, 5, randomBytes(1));
    assert.equal(over.status, 413);
    assert.match(((await over.json()) as { error: string }).error, /limit/);
    assert.equal((await row(id)).status, 'stopped');
    assert.equal((await lee.chunk(id, 5, randomBytes(1))).status, 409, 'stopped at its limit');
    assert.deepEqual(fileOf(event, id), Buffer.concat(chunks));
  });

  it('stops a recording at RECORDING_MAX_CHUNKS (413): each chunk is a row', async () => {
    const { event, lee } = await interviewing();
    const id = await lee.started();
    const chunks = Array.from({ length: MAX_CHUNKS }, () => randomBytes(10));
    for (const [seq, chunk] of chunks.entries()) {
      assert.equal((await lee.chunk(id, seq, chunk)).status, 204);
    }
    const over = await lee.chunk(id, MAX_CHUNKS, randomBytes(10));
    assert.equal(over.status, 413);
    assert.match(((await over.json()) as { error: string }).error, /limit of 30 chunks/);
    assert.equal((await row(id)).status, 'stopped');
    assert.deepEqual(fileOf(event, id), Buffer.concat(chunks));
  });

  it('refuses to start without an open record (409), without the interviewer cookie (403), and without the CSRF header (403)', async () => {
    const event = await insertOpenEvent(database().db, tenant);
    const browser = await interviewerBrowser(service.url, event, event.emails[0]);
    const lee = new RecordingClient(browser, event.interviewerPath);
    const early = await lee.start();
    assert.equal(early.status, 409, 'nobody admitted yet');
    assert.match(((await early.json()) as { error: string }).error, /admit/);

    await admitInterviewee(service.url, event, browser);
    const token = browser.csrfToken;
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const csrf of ['', 'forged', altered]) {
      const forged = await lee.start(csrf);
      assert.equal(forged.status, 403, csrf);
      assert.match(forged.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(((await forged.json()) as { error: string }).error);
    }
    browser.forget('hpa_lobby_interviewer');
    const anonymous = await lee.start();
    assert.equal(anonymous.status, 403);
    assert.ok(((await anonymous.json()) as { error: string }).error);
    const rows = await database().db('recordings').where({ event_id: event.eventId });
    assert.equal(rows.length, 0);
  });

  it('answers unknown and other-kind tokens with the lobby not-found page', async () => {
    const { event, lee } = await interviewing();
    const id = await lee.started();
    const wrongLobby = await fetch(`${service.url}/lobby/interviewer/${'A'.repeat(43)}`);
    const expected = await wrongLobby.text();
    const intervieweeToken = event.intervieweePath.split('/').at(-1)!;
    for (const path of [
      `/lobby/interviewer/${'A'.repeat(43)}/recordings`,
      `/lobby/interviewer/${intervieweeToken}/recordings`,
      `/lobby/interviewer/${'B'.repeat(43)}/recordings/${id}/stop`,
    ]) {
      const response = await fetch(`${service.url}${path}`, { method: 'POST' });
      assert.equal(response.status, 404, path);
      assert.equal(await response.text(), expected, path);
    }
  });

  it('keeps a consistent file under 20 chunks sent at once, with retries until all are acknowledged', async () => {
    const { event, lee } = await interviewing();
    const id = await lee.started();
    const chunks = Array.from({ length: 20 }, () => randomBytes(200));
    let pending = chunks.map((_, seq) => seq);
    for (let round = 0; pending.length && round < 40; round += 1) {
      const answers = await Promise.all(pending.map((seq) => lee.chunk(id, seq, chunks[seq]!)));
      const refused = [];
      for (const [index, answer] of answers.entries()) {
        const seq = pending[index]!;
        if (answer.status === 204) continue;
        assert.equal(answer.status, 409, `chunk ${seq}`);
        const { expectedSeq } = (await answer.json()) as { expectedSeq: number };
        assert.ok(expectedSeq <= seq, `chunk ${seq} refused while ${expectedSeq} is expected`);
        refused.push(seq);
      }
      pending = refused;
    }
    assert.deepEqual(pending, []);
    // Every chunk sent once more is acknowledged again and changes nothing.
    const again = await Promise.all(chunks.map((chunk, seq) => lee.chunk(id, seq, chunk)));
    assert.deepEqual(new Set(again.map((answer) => answer.status)), new Set([204]));
    assert.deepEqual(fileOf(event, id), Buffer.concat(chunks));
    const stored = await row(id);
    assert.equal(stored.chunks, 20);
    assert.equal(stored.bytes, 4000);
  });

  it('stops a recording left running by an interview that ended when the next one starts', async () => {
    const { event, lee } = await interviewing();
    const first = await lee.started();
    assert.equal((await lee.chunk(first, 0, randomBytes(10))).status, 204);
    const browser = await interviewerBrowser(service.url, event, event.emails[0]);
    assert.equal(await browser.submit(`${event.interviewerPath}/send-back`), 303);
    assert.equal(await browser.submit(`${event.interviewerPath}/admit`), 303);
    const second = await new RecordingClient(browser, event.interviewerPath).started();
    assert.notEqual(second, first);
    assert.equal((await row(first)).status, 'stopped');
    assert.equal((await row(second)).status, 'recording');
  });
});
