import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/clock.js';
import type { Principal } from '../../src/oauth/principal.js';
import { randomToken } from '../../src/security/random.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
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

const DAY = 24 * 60 * 60 * 1000;

const RECORDS = `query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events {
  intervieweesConnection { interviewees { interviewRecordsConnection { records { id recordingUrl } } } }
} } }`;

/** A service whose scheduler token acts for the tenant's employer, recording into `dir`. */
async function recordingService(
  database: TestDatabase,
  dir: string,
  env: Record<string, string> = {},
) {
  const tenant = await insertTenant(database.db, 'streaming');
  const principal: Principal = {
    kind: 'user',
    userId: tenant.userId,
    appId: tenant.appId,
    clientId: 'streaming-client',
    jti: 'streaming-token',
    employerId: tenant.employerId,
    scopes: ['employer_access'],
  };
  const service = await startTestService(database, {
    authenticate: async (token) => (token === 'scheduler' ? principal : null),
    env: { RECORDINGS_DIR: dir, ...env },
  });
  return { service, tenant };
}

/** An interview with a recording of `content` in chunks of 100 bytes; `stop` stops it. */
async function recorded(
  database: TestDatabase,
  base: string,
  tenant: Awaited<ReturnType<typeof insertTenant>>,
  content: Buffer,
  stop: boolean,
): Promise<{ event: InterviewInProgress; id: string }> {
  const event = await insertOpenEvent(database.db, tenant);
  const browser = await interviewerBrowser(base, event, event.emails[0]);
  await admitInterviewee(base, event, browser);
  const lee = new RecordingClient(browser, event.interviewerPath);
  const id = await lee.started();
  for (let seq = 0; seq * 100 < content.length; seq += 1) {
    const sent = await lee.chunk(id, seq, content.subarray(seq * 100, seq * 100 + 100));
    assert.equal(sent.status, 204);
  }
  if (stop) assert.equal((await lee.stop(id)).status, 204);
  return { event, id };
}

/** The recording URLs of the event's records, as the employer reads them, by record id. */
async function recordingUrls(base: string, eventId: string): Promise<Map<string, string | null>> {
  const { body } = await postGraphQL(base, 'scheduler', {
    query: RECORDS,
    variables: { ids: [eventId] },
  });
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  const [interviewee] =
    body.data.virtualInterviewEvents.events[0].intervieweesConnection.interviewees;
  const records = interviewee.interviewRecordsConnection.records as Array<{
    id: string;
    recordingUrl: string | null;
  }>;
  return new Map(records.map((record) => [record.id, record.recordingUrl]));
}

async function wrongLobbyPage(base: string): Promise<string> {
  return (await fetch(`${base}/lobby/interviewer/${randomToken()}`)).text();
}

describeEachDialect('recordings: streaming and recordingUrl', (database) => {
  let dir: string;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let tenant: Awaited<ReturnType<typeof insertTenant>>;
  const content = randomBytes(300);
  let stoppedUrl: string;
  let event: InterviewInProgress;
  let id: string;

  before(async () => {
    dir = temporaryRecordingsDir();
    ({ service, tenant } = await recordingService(database(), dir));
    ({ event, id } = await recorded(database(), service.url, tenant, content, true));
    const urls = await recordingUrls(service.url, event.eventId);
    stoppedUrl = [...urls.values()].find((url) => url !== null)!;
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the employer the URL on the record that was open, and null on the earlier record', async () => {
    const urls = await recordingUrls(service.url, event.eventId);
    assert.equal(urls.get(event.recordIdBefore), null);
    const row = await database().db('recordings').where({ id }).first();
    assert.equal(urls.get(row.record_id), stoppedUrl);
    assert.match(
      stoppedUrl,
      new RegExp(`^${service.config.publicUrl}/recordings/[A-Za-z0-9_-]{43}$`),
    );
  });

  it('streams the whole recording as video/webm, no-store, no-referrer, nosniff, with byte ranges', async () => {
    const whole = await fetch(stoppedUrl);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'video/webm');
    assert.equal(whole.headers.get('cache-control'), 'no-store');
    assert.equal(whole.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(whole.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    // A partner's own site may embed it; the token is the protection (README "Recordings").
    assert.equal(whole.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(whole.headers.get('access-control-allow-origin'), null, 'no CORS');
    assert.deepEqual(Buffer.from(await whole.arrayBuffer()), content);
  });

  it('answers ranges with 206 and Content-Range, and an unsatisfiable one with 416', async () => {
    const range = async (value: string) => fetch(stoppedUrl, { headers: { range: value } });
    const first = await range('bytes=0-99');
    assert.equal(first.status, 206);
    assert.equal(first.headers.get('content-range'), 'bytes 0-99/300');
    assert.deepEqual(Buffer.from(await first.arrayBuffer()), content.subarray(0, 100));

    const last = await range('bytes=-10');
    assert.equal(last.status, 206);
    assert.equal(last.headers.get('content-range'), 'bytes 290-299/300');
    assert.deepEqual(Buffer.from(await last.arrayBuffer()), content.subarray(290));

    const rest = await range('bytes=10-');
    assert.equal(rest.status, 206);
    assert.equal(rest.headers.get('content-range'), 'bytes 10-299/300');
    assert.deepEqual(Buffer.from(await rest.arrayBuffer()), content.subarray(10));

    assert.equal(first.headers.get('cross-origin-resource-policy'), 'cross-origin');

    const beyond = await range('bytes=300-400');
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), 'bytes */300');
    await beyond.arrayBuffer();
  });

  it('answers HEAD with the length and no body', async () => {
    const head = await fetch(stoppedUrl, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), '300');
    assert.equal(head.headers.get('content-type'), 'video/webm');
    assert.equal((await head.arrayBuffer()).byteLength, 0);
  });

  it('streams a recording still being made, up to its acknowledged bytes', async () => {
    const growing = randomBytes(250);
    const { event: live } = await recorded(database(), service.url, tenant, growing, false);
    const url = [...(await recordingUrls(service.url, live.eventId)).values()].find(Boolean)!;
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), growing);
  });

  it('answers unknown, altered, lobby and deleted tokens with the very page of a wrong lobby link', async () => {
    const expected = await wrongLobbyPage(service.url);
    const token = stoppedUrl.split('/').at(-1)!;
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const lobbyToken = event.interviewerPath.split('/').at(-1)!;
    for (const path of [randomToken(), altered, lobbyToken, 'short', `${token}x`]) {
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(`${service.url}/recordings/${path}`, { method });
        assert.equal(response.status, 404, `${method} ${path}`);
        assert.equal(response.headers.get('cache-control'), 'no-store');
        assert.equal(response.headers.get('cross-origin-resource-policy'), 'same-origin');
        if (method === 'GET') assert.equal(await response.text(), expected, path);
      }
    }
  });
});

describeEachDialect('recordings: retention after archiving', (database) => {
  let dir: string;
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(() => {
    dir = temporaryRecordingsDir();
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the files RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE after archiving; the URL then 404s', async () => {
    const env = {
      RECORDINGS_DIR: dir,
      ARCHIVE_AFTER_DAYS: '1',
      RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE: '1',
    };
    let tenant;
    ({ service, tenant } = await recordingService(database(), dir, env));
    const { event, id } = await recorded(database(), service.url, tenant, randomBytes(120), true);
    const [url] = [...(await recordingUrls(service.url, event.eventId)).values()].filter(Boolean);
    const file = join(dir, event.eventId, `${id}.webm`);
    const { end_at: endAt } = await database()
      .db('interview_events')
      .where({ id: event.eventId })
      .first();

    const clock = new ManualClock(endAt + DAY);
    const sweeps = () => testCliServices(database().db, { clock, env }).sweepInterviews();
    const archiving = await sweeps();
    assert.deepEqual([archiving.archived, archiving.recordingsDeleted], [1, 0]);
    clock.set(endAt + 2 * DAY - 1);
    assert.equal((await sweeps()).recordingsDeleted, 0);
    assert.ok(existsSync(file));
    assert.equal((await fetch(url!)).status, 200);

    clock.set(endAt + 2 * DAY);
    const together = await Promise.all([sweeps(), sweeps(), sweeps()]);
    assert.equal(
      together.reduce((sum, counts) => sum + counts.recordingsDeleted!, 0),
      1,
    );
    assert.ok(!existsSync(file));
    assert.ok(!existsSync(join(dir, event.eventId)), 'the empty event directory goes too');
    const gone = await fetch(url!);
    assert.equal(gone.status, 404);
    assert.equal(await gone.text(), await wrongLobbyPage(service.url));
    assert.deepEqual([...(await recordingUrls(service.url, event.eventId)).values()], [null, null]);
    assert.equal((await sweeps()).recordingsDeleted, 0, 'nothing left to delete');
  });

  it('deletes at archiving when no days are kept, and a file already missing is no error', async () => {
    const env = {
      RECORDINGS_DIR: dir,
      ARCHIVE_AFTER_DAYS: '1',
      RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE: '0',
    };
    await service.stop();
    let tenant;
    ({ service, tenant } = await recordingService(database(), dir, env));
    const { event, id } = await recorded(database(), service.url, tenant, randomBytes(50), false);
    rmSync(join(dir, event.eventId, `${id}.webm`));
    const { end_at: endAt } = await database()
      .db('interview_events')
      .where({ id: event.eventId })
      .first();
    const clock = new ManualClock(endAt + DAY);
    const chunkRows = () => database().db('recording_chunks').where({ recording_id: id });
    assert.equal((await chunkRows()).length, 1);
    const counts = await testCliServices(database().db, { clock, env }).sweepInterviews();
    assert.equal(counts.recordingsDeleted, 1);
    const row = await database().db('recordings').where({ id }).first();
    assert.equal(row.deleted_at, endAt + DAY);
    assert.equal((await chunkRows()).length, 0, 'its chunks are forgotten with it');
  });
});
