import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SecretBox } from '../../src/security/secret-box.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';
import {
  fixedAddress,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';
import {
  admitInterviewee,
  insertOpenEvent,
  interviewerBrowser,
  RecordingClient,
  temporaryRecordingsDir,
} from './interview-in-progress.js';

/**
 * DESIGN §6 for recordings: an acknowledged chunk survives SIGKILL. The row's `bytes` is the
 * truth; a tail the file gained after the last acknowledgement (a crash between writing and
 * committing) is served to nobody and cut by the next chunk.
 */
describeEachDialect('recordings: SIGKILL after acknowledged chunks', (database) => {
  let dir: string;
  let service: ServiceProcess | undefined;

  before(() => {
    dir = temporaryRecordingsDir();
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps exactly the acknowledged bytes, and the next chunk appends after them', async function () {
    this.timeout(120_000);
    const env = { ...(await fixedAddress()), RECORDINGS_DIR: dir };
    service = await startServiceProcess(database(), env);
    const event = await insertOpenEvent(database().db, await insertTenant(database().db, 'crash'));
    const browser = await interviewerBrowser(service.url, event, event.emails[0]);
    await admitInterviewee(service.url, event, browser);
    const lee = new RecordingClient(browser, event.interviewerPath);
    const id = await lee.started();
    const chunks = Array.from({ length: 8 }, () => randomBytes(4096));
    await Promise.all(
      chunks.map(async (chunk, seq) => {
        // Sent at once: each retries until its turn, as a client would.
        for (;;) {
          const answer = await lee.chunk(id, seq, chunk);
          if (answer.status === 204) return;
          assert.equal(answer.status, 409, service!.output());
          await answer.arrayBuffer();
        }
      }),
    );
    await service.kill();

    const file = join(dir, event.eventId, `${id}.webm`);
    assert.deepEqual(readFileSync(file), Buffer.concat(chunks));
    // What a crash between the write and the commit of a ninth chunk would leave behind.
    appendFileSync(file, randomBytes(1000));

    service = await startServiceProcess(database(), env);
    const url = await streamUrl(service.url, event.eventId);
    const served = await fetch(url);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), Buffer.concat(chunks));

    const again = await interviewerBrowser(service.url, event, event.emails[0]);
    const client = new RecordingClient(again, event.interviewerPath);
    const retried = await client.chunk(id, 7, chunks[7]!);
    assert.equal(retried.status, 204, 'the last acknowledged chunk, retried after the restart');
    const next = randomBytes(500);
    assert.equal((await client.chunk(id, 8, next)).status, 204);
    assert.deepEqual(readFileSync(file), Buffer.concat([...chunks, next]));
    const row = await database().db('recordings').where({ id }).first();
    assert.deepEqual([row.chunks, row.bytes], [9, 8 * 4096 + 500]);
  });

  /** The recording's streaming URL, rebuilt from its sealed token as the API would. */
  async function streamUrl(base: string, eventId: string): Promise<string> {
    const row = await database().db('recordings').where({ event_id: eventId }).first();
    const token = new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'recording-tokens').open(
      row.token_sealed,
    );
    return `${base}/recordings/${token}`;
  }
});
