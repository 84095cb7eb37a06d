import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { systemClock } from '../../src/clock.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { volume } from '../support/concurrency.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { halfWrittenRows } from '../support/integrity.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { checkLedger } from '../support/ledger-check.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';
import {
  RAISED_RATE_LIMITS,
  fixedAddress,
  startServiceProcess,
  workersReplaced,
  type ServiceProcess,
} from '../support/service-process.js';
import { TokenRequests, refreshTokensOfSignIns } from '../support/token-requests.js';
import { WriteLedger } from '../support/write-ledger.js';
import { WriteLoad } from '../support/write-load.js';
import {
  admitInterviewee,
  insertOpenEvent,
  interviewerBrowser,
  RecordingClient,
  temporaryRecordingsDir,
} from '../recordings/interview-in-progress.js';

/** Rounds alternate: a worker killed (the primary replaces it), then the whole cluster. */
const ROUNDS = volume('RELIABILITY_CLUSTER_KILL_ROUNDS', 4);
const KILL_AFTER = volume('RELIABILITY_CLUSTER_KILL_AFTER_OPERATIONS', 100);
const REFRESHES_PER_ROUND = 40;
const TOKEN_CLIENTS = 3;
const REFRESH_CLIENTS = 2;
const INTERVIEW_CLIENTS = 4;
const RECORDING_CLIENTS = 2;

/**
 * DESIGN §6 under the production default: a cluster of two workers takes a mixed write load
 * (client-credentials tokens, refreshes, events with interviewers and additions, interview days
 * on the lobby pages, recording chunks) and loses first one worker (SIGKILL; the primary
 * replaces it while the load goes on), then everything (SIGKILL of the primary; its workers
 * follow it), in turn. After each kill every acknowledged write is there and whole, nothing is
 * half written, and each recording serves exactly its acknowledged chunks (plus at most the one
 * that was in flight).
 */
describeEachDialect('reliability: SIGKILL of a worker and of the primary (cluster)', (database) => {
  let recordingsDir: string;
  before(() => {
    recordingsDir = temporaryRecordingsDir();
  });

  it(`keeps every acknowledged write through ${ROUNDS} kills`, async function () {
    this.timeout(600_000);
    const tenant = await createOAuthTenant(database().db, systemClock, 'cluster-crash');
    const recordingTenant = await insertTenant(database().db, 'cluster-crash-recordings');
    const env = { ...(await fixedAddress()), ...RAISED_RATE_LIMITS, RECORDINGS_DIR: recordingsDir };
    const ledger = new WriteLedger();
    const recordings = new RecordingLedger();
    let service = await startServiceProcess(database(), env, 'cluster');
    try {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const wholeCluster = round % 2 === 0;
        const refreshTokens = await refreshTokensOfSignIns(
          database().db,
          tenant,
          new TokenRequests(service.url, tenant.app),
          REFRESHES_PER_ROUND,
        );
        const counts = await loadUntilKilled(service, wholeCluster, {
          tenant,
          ledger,
          refreshTokens,
          recordings,
          openRecording: () => openRecording(service.url, database(), recordingTenant),
        });
        console.log(
          `      kill ${round} (${wholeCluster ? 'primary' : 'one worker'}): ` +
            `${counts.acknowledged} acknowledged, ${counts.unanswered} unanswered`,
        );
        if (wholeCluster) service = await startServiceProcess(database(), env, 'cluster');
        else await workersReplaced(service);

        const report = await checkLedger(ledger, { url: service.url, db: database().db, tenant });
        const recorded = await recordings.check(service.url, database());
        console.log(
          `      acknowledged ${JSON.stringify({ ...report.acknowledged, ...recorded.acknowledged })}`,
        );
        console.log(`      found        ${JSON.stringify({ ...report.found, ...recorded.found })}`);
        assert.deepEqual(report.problems, [], service.output());
        assert.deepEqual(recorded.problems, [], service.output());
        assert.deepEqual(report.found, report.acknowledged);
        assert.deepEqual(await halfWrittenRows(database().db), [], service.output());
      }
    } finally {
      await service.stop();
    }
    // Only the kills this test made: one worker death reported per worker round.
    const expected = Math.ceil(ROUNDS / 2);
    assert.ok(
      service.crashes().filter((line) => !/worker died unexpectedly/.test(line)).length === 0,
      service.crashes().join('\n'),
    );
    assert.ok(service.crashes().length <= expected, service.crashes().join('\n'));
  });
});

interface LoadParts {
  tenant: OAuthTenant;
  ledger: WriteLedger;
  refreshTokens: string[];
  recordings: RecordingLedger;
  openRecording(): Promise<OpenRecording>;
}

/**
 * Runs every kind of write at once until KILL_AFTER are acknowledged, then SIGKILLs one worker
 * or the primary while requests are in flight, and lets every client notice.
 */
async function loadUntilKilled(
  service: ServiceProcess,
  wholeCluster: boolean,
  parts: LoadParts,
): Promise<WriteLoad['counts']> {
  const { tenant, ledger } = parts;
  const load = await WriteLoad.start(service.url, tenant, ledger);
  let killed = false;

  async function issueTokens(): Promise<void> {
    while (!killed) await load.issueToken();
  }
  async function refresh(): Promise<void> {
    while (!killed && parts.refreshTokens.length > 0)
      await load.refresh(parts.refreshTokens.pop()!);
  }
  async function interviewDays(client: number): Promise<void> {
    while (!killed) await load.interviewRound(client % 2 === 0);
  }
  async function record(): Promise<void> {
    while (!killed) {
      let recording: OpenRecording;
      try {
        recording = await parts.openRecording();
      } catch (error) {
        if (killed) return;
        // A step of opening one (the lobby's admit, the upload's start) went to the worker
        // just killed: nothing of it was acknowledged; open another on the survivor.
        if (error instanceof TypeError && error.message === 'fetch failed') {
          load.counts.unanswered += 1;
          continue;
        }
        throw error;
      }
      parts.recordings.add(recording);
      for (let seq = 0; !killed && seq < 40; seq += 1) {
        const chunk = randomBytes(1024 + Math.floor(Math.random() * 8192));
        recording.attempted = chunk;
        let status: number;
        try {
          const answer = await recording.client.chunk(recording.id, seq, chunk);
          status = answer.status;
          await answer.arrayBuffer();
        } catch {
          // No answer (its worker died): the chunk may have committed; on to a new recording.
          load.counts.unanswered += 1;
          break;
        }
        if (status !== 204) {
          recording.attempted = undefined;
          break;
        }
        recording.acknowledged.push(chunk);
        recording.attempted = undefined;
        load.counts.acknowledged += 1;
      }
    }
  }
  const clients = [
    ...Array.from({ length: TOKEN_CLIENTS }, issueTokens),
    ...Array.from({ length: REFRESH_CLIENTS }, refresh),
    ...Array.from({ length: INTERVIEW_CLIENTS }, (_, i) => interviewDays(i)),
    ...Array.from({ length: RECORDING_CLIENTS }, record),
  ];
  while (load.counts.acknowledged < KILL_AFTER) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (wholeCluster) {
    killed = true;
    await service.kill();
  } else {
    service.killWorker();
    // The load goes on against the surviving worker for a while, then stops.
    const goal = load.counts.acknowledged + KILL_AFTER / 2;
    while (load.counts.acknowledged < goal) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
  }
  await Promise.all(clients);
  return load.counts;
}

interface OpenRecording {
  eventId: string;
  id: string;
  client: RecordingClient;
  acknowledged: Buffer[];
  /** The chunk in flight when the load stopped, if any: it may or may not have committed. */
  attempted?: Buffer;
}

/** An interview in progress, its interviewee admitted, a recording started by the interviewer. */
async function openRecording(
  url: string,
  database: TestDatabase,
  tenant: Awaited<ReturnType<typeof insertTenant>>,
): Promise<OpenRecording> {
  const event = await insertOpenEvent(database.db, tenant);
  // As the API would have made it: the creator is the first interviewer (an integrity rule).
  await database
    .db('interviewers')
    .where({ event_id: event.eventId, position: 0 })
    .update({ user_id: tenant.userId });
  const browser = await interviewerBrowser(url, event, event.emails[0]);
  await admitInterviewee(url, event, browser);
  const client = new RecordingClient(browser, event.interviewerPath);
  return { eventId: event.eventId, id: await client.started(), client, acknowledged: [] };
}

/** Every recording of the load, its acknowledged chunks, and what each serves after a kill. */
class RecordingLedger {
  private readonly recordings: OpenRecording[] = [];

  add(recording: OpenRecording): void {
    this.recordings.push(recording);
  }

  async check(
    url: string,
    database: TestDatabase,
  ): Promise<{
    acknowledged: { chunkBytes: number };
    found: { chunkBytes: number };
    problems: string[];
  }> {
    const problems: string[] = [];
    let acknowledged = 0;
    let found = 0;
    const box = new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'recording-tokens');
    for (const recording of this.recordings) {
      const expected = Buffer.concat(recording.acknowledged);
      acknowledged += expected.length;
      const row = await database.db('recordings').where({ id: recording.id }).first();
      const served = await fetch(`${url}/recordings/${box.open(row.token_sealed)}`);
      const bytes =
        served.status === 200 ? Buffer.from(await served.arrayBuffer()) : Buffer.alloc(0);
      if (served.status !== 200 && expected.length > 0) {
        problems.push(`recording ${recording.id} answered ${served.status}`);
        continue;
      }
      const withAttempt = recording.attempted
        ? Buffer.concat([expected, recording.attempted])
        : expected;
      if (bytes.equals(expected) || bytes.equals(withAttempt)) {
        found += expected.length;
        // What a later check of this recording expects: the in-flight chunk if it committed.
        if (!bytes.equals(expected)) recording.acknowledged.push(recording.attempted!);
        recording.attempted = undefined;
      } else {
        problems.push(
          `recording ${recording.id} serves ${bytes.length} bytes; acknowledged ${expected.length}` +
            (recording.attempted ? ` (+${recording.attempted.length} in flight)` : ''),
        );
      }
    }
    return { acknowledged: { chunkBytes: acknowledged }, found: { chunkBytes: found }, problems };
  }
}
