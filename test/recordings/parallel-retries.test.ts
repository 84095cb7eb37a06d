import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SecretBox } from '../../src/security/secret-box.js';
import { volume, tally } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import {
  admitInterviewee,
  insertOpenEvent,
  interviewerBrowser,
  RecordingClient,
  temporaryRecordingsDir,
  type ChunkAnswer,
} from './interview-in-progress.js';

/** Sequence numbers each sent twice at once (RECORDING_RETRY_SEQS for a heavier run). */
const SEQUENCES = volume('RECORDING_RETRY_SEQS', 200);
/** Sequence numbers each raced by six different bodies (RECORDING_RACE_ROUNDS). */
const RACE_ROUNDS = volume('RECORDING_RACE_ROUNDS', 5);
const RACERS = 6;
/** Answers asking to come back later (Retry-After) are followed at most this often per copy. */
const MAX_RETRIES = 30;
/** RECORDING_CHUNK_CLAIM_SECONDS here: longer than a request waits for a chunk in flight (3 s). */
const CLAIM_SECONDS = 5;

/**
 * Issue 18, item 4: a chunk whose reply was lost is sent again, maybe on another connection and
 * so to the other worker, while the first copy is still being handled. Under the production
 * default (a primary and two workers) the recording must serve exactly the acknowledged chunks,
 * one after another, and never answer 5xx.
 */
describeEachDialect(
  'recordings: chunks sent again at once to a cluster of two workers',
  (database) => {
    let dir: string;
    let service: ServiceProcess;
    let tenant: Awaited<ReturnType<typeof insertTenant>>;

    before(async function () {
      this.timeout(120_000);
      dir = temporaryRecordingsDir();
      tenant = await insertTenant(database().db, 'parallel-chunks');
      service = await startServiceProcess(
        database(),
        { RECORDINGS_DIR: dir, RECORDING_CHUNK_CLAIM_SECONDS: String(CLAIM_SECONDS) },
        'cluster',
      );
    });
    after(async () => {
      await service?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    async function recording(): Promise<{ lee: RecordingClient; id: string; eventId: string }> {
      const event = await insertOpenEvent(database().db, tenant);
      const browser = await interviewerBrowser(service.url, event, event.emails[0]);
      await admitInterviewee(service.url, event, browser);
      const lee = new RecordingClient(browser, event.interviewerPath);
      return { lee, id: await lee.started(), eventId: event.eventId };
    }

    /** Sends the chunk as a client would: again after each Retry-After, else the answer stands. */
    async function send(
      lee: RecordingClient,
      id: string,
      seq: number,
      data: Buffer,
      seen: ChunkAnswer[],
    ): Promise<ChunkAnswer> {
      for (let attempt = 0; ; attempt += 1) {
        const answer = await lee.chunkOnOwnConnection(id, seq, data);
        seen.push(answer);
        if (answer.retryAfter === undefined || attempt === MAX_RETRIES) return answer;
        await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter) * 1000));
      }
    }

    /** True as soon as one answer is 204; false once none is. */
    function firstAcknowledged(copies: Array<Promise<ChunkAnswer>>): Promise<boolean> {
      return new Promise((resolve, reject) => {
        for (const copy of copies) {
          copy.then((answer) => answer.status === 204 && resolve(true), reject);
        }
        void Promise.all(copies).then(() => resolve(false), reject);
      });
    }

    /** What the recording's streaming URL serves now. */
    async function served(eventId: string): Promise<Buffer> {
      const row = await database().db('recordings').where({ event_id: eventId }).first();
      const token = new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'recording-tokens').open(
        row.token_sealed,
      );
      const response = await fetch(`${service.url}/recordings/${token}`);
      assert.equal(response.status, 200);
      return Buffer.from(await response.arrayBuffer());
    }

    it(`serves exactly the acknowledged bytes after ${SEQUENCES} chunks each sent twice at once`, async function () {
      this.timeout(180_000);
      const { lee, id, eventId } = await recording();
      const seen: ChunkAnswer[] = [];
      const acknowledged: Buffer[] = [];
      let firstUnacknowledged: number | undefined;
      const stragglers: Array<Promise<unknown>> = [];
      for (let seq = 0; seq < SEQUENCES; seq += 1) {
        const chunk = randomBytes(randomInt(500, 3000));
        const copies = [1, 2].map(() => send(lee, id, seq, chunk, seen));
        stragglers.push(...copies);
        // As a browser does: on to the next chunk at the first acknowledgement, whatever the
        // other copy (a retry whose first reply was lost) is still doing.
        if (await firstAcknowledged(copies)) acknowledged.push(chunk);
        else firstUnacknowledged ??= seq;
      }
      await Promise.all(stragglers);
      const statuses = tally(seen, (answer) => String(answer.status));
      const bytes = await served(eventId);
      const expected = Buffer.concat(acknowledged);
      const figures =
        `statuses ${JSON.stringify(statuses)}; ${acknowledged.length} of ${SEQUENCES} chunks ` +
        `acknowledged (${expected.length} bytes), first unacknowledged ${firstUnacknowledged ?? '-'}, ` +
        `${bytes.length} bytes served`;
      console.log(`      ${figures}`);
      assert.equal(seen.filter((answer) => answer.status >= 500).length, 0, figures);
      assert.equal(acknowledged.length, SEQUENCES, figures);
      assert.ok(bytes.equals(expected), `the served bytes are the acknowledged chunks: ${figures}`);
      const row = await database().db('recordings').where({ id }).first();
      assert.deepEqual([Number(row.chunks), Number(row.bytes)], [SEQUENCES, expected.length]);
      assert.deepEqual(service.crashes(), []);
    });

    it(`acknowledges one of ${RACERS} different bodies under one number, refuses the others, and appends the next`, async function () {
      this.timeout(120_000);
      const { lee, id, eventId } = await recording();
      const seen: ChunkAnswer[] = [];
      const expected: Buffer[] = [];
      const outcomes: string[] = [];
      let wrongRounds = 0;
      let nextAppended = 0;
      const first = randomBytes(1000);
      assert.equal((await send(lee, id, 0, first, seen)).status, 204);
      expected.push(first);
      for (let round = 0; round < RACE_ROUNDS; round += 1) {
        const seq = 1 + 2 * round;
        const bodies = Array.from({ length: RACERS }, () => randomBytes(randomInt(500, 3000)));
        const answers = await Promise.all(bodies.map((body) => send(lee, id, seq, body, seen)));
        const winners = bodies.filter((_, index) => answers[index]!.status === 204);
        const clear = answers.filter(
          (answer) => answer.status === 409 && /different/.test(answer.body.error ?? ''),
        );
        outcomes.push(
          `${answers.map((answer) => answer.status).join(',')} (${clear.length} clear)`,
        );
        wrongRounds += winners.length === 1 && clear.length === RACERS - 1 ? 0 : 1;
        // With several acknowledged, the first stands for them: the comparison below must fail.
        expected.push(winners[0] ?? Buffer.alloc(0));
        const next = randomBytes(randomInt(500, 3000));
        nextAppended += (await send(lee, id, seq + 1, next, seen)).status === 204 ? 1 : 0;
        expected.push(next);
      }
      const bytes = await served(eventId);
      const figures =
        `answers per round ${JSON.stringify(outcomes)}; next chunk appended ${nextAppended} of ` +
        `${RACE_ROUNDS}; ${Buffer.concat(expected).length} bytes acknowledged, ${bytes.length} ` +
        `served, ${bytes.equals(Buffer.concat(expected)) ? 'equal' : 'different'}`;
      console.log(`      ${figures}`);
      assert.equal(wrongRounds, 0, figures);
      assert.equal(nextAppended, RACE_ROUNDS, figures);
      assert.ok(bytes.equals(Buffer.concat(expected)), figures);
      assert.equal(seen.filter((answer) => answer.status >= 500).length, 0, figures);
      assert.deepEqual(service.crashes(), []);
    });

    it('saves a chunk whose claim a dead process left once the claim lapses, serving none of what it wrote before', async function () {
      this.timeout(60_000);
      const { lee, id, eventId } = await recording();
      const seen: ChunkAnswer[] = [];
      const first = randomBytes(1500);
      assert.equal((await send(lee, id, 0, first, seen)).status, 204);
      // What a worker killed between writing chunk 1 and committing it leaves behind: its claim
      // and its bytes past the acknowledged length (here with more after them).
      const second = randomBytes(1200);
      await database()
        .db('recording_chunks')
        .insert({
          recording_id: id,
          seq: 1,
          start_byte: first.length,
          size: second.length,
          digest: createHash('sha256').update(second).digest('hex'),
          claim_id: randomUUID(),
          claimed_at: Date.now(),
          committed_at: null,
        });
      const file = join(dir, eventId, `${id}.webm`);
      appendFileSync(file, Buffer.concat([second, randomBytes(700)]));
      assert.ok((await served(eventId)).equals(first), 'only the acknowledged bytes are served');

      const retried = await send(lee, id, 1, second, seen);
      assert.equal(retried.status, 204, JSON.stringify(retried));
      const waited = seen.filter((answer) => answer.status === 409 && answer.retryAfter === '1');
      assert.ok(waited.length > 0, 'told to come back while the claim had not lapsed');
      assert.match(waited[0]!.body.error ?? '', /still being saved/);
      const third = randomBytes(900);
      assert.equal((await send(lee, id, 2, third, seen)).status, 204);
      const expected = Buffer.concat([first, second, third]);
      assert.ok((await served(eventId)).equals(expected));
      assert.ok(readFileSync(file).equals(expected), 'the unacknowledged tail was cut');
      assert.equal(seen.filter((answer) => answer.status >= 500).length, 0);
      assert.deepEqual(service.crashes(), []);
    });
  },
);
