import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import { ManualClock } from '../../src/clock.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { EventRow, IntervieweeRow, InterviewRecordRow } from '../../src/db/rows.js';
import type { EventStatus, IntervieweeStatus } from '../../src/interviews/vocabulary.js';
import { TransitionRefused } from '../../src/interviews/lifecycle/interview-lifecycle.js';
import {
  archiveDelayMs,
  settleEvent,
  settleInterviewee,
} from '../../src/interviews/lifecycle/settle.js';
import { LifecycleStore } from '../../src/interviews/lifecycle/lifecycle-store.js';
import { InterviewSweeper } from '../../src/interviews/lifecycle/sweeper.js';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { silentLogger } from '../support/logger.js';
import { startTestService } from '../support/service.js';

const MINUTE = 60_000;
const ARCHIVE_AFTER = archiveDelayMs(30);
const START = Date.UTC(2027, 5, 1, 10, 0);
const END = START + 60 * MINUTE;

describe('settling statuses by the clock (pure)', () => {
  const event = (status: EventStatus, endedAt: number | null = null) => ({
    status,
    end_at: END,
    ended_at: endedAt,
  });
  const settled = (row: ReturnType<typeof event>, now: number) =>
    settleEvent(row, now, ARCHIVE_AFTER).status;

  it('ends an open event at its end time and archives it ARCHIVE_AFTER_DAYS later', () => {
    for (const status of ['SCHEDULED', 'STARTED'] as const) {
      assert.equal(settled(event(status), END - 1), status);
      assert.equal(settled(event(status), END), 'ENDED');
      assert.equal(settled(event(status), END + ARCHIVE_AFTER - 1), 'ENDED');
      assert.equal(settled(event(status), END + ARCHIVE_AFTER), 'ARCHIVED');
    }
    assert.deepEqual(settleEvent(event('STARTED'), END, ARCHIVE_AFTER), {
      status: 'ENDED',
      endedAt: END,
    });
  });

  it('archives an event ended early from the moment it ended, and leaves the rest alone', () => {
    const early = START + 10 * MINUTE;
    assert.equal(settled(event('ENDED', early), early + ARCHIVE_AFTER - 1), 'ENDED');
    assert.equal(settled(event('ENDED', early), early + ARCHIVE_AFTER), 'ARCHIVED');
    assert.equal(settled(event('CANCELLED'), END + 2 * ARCHIVE_AFTER), 'CANCELLED');
    assert.equal(settled(event('ARCHIVED', early), END + 2 * ARCHIVE_AFTER), 'ARCHIVED');
  });

  it('moves the interviewee as the event ending says, once the event has ended', () => {
    const cases: Array<[IntervieweeStatus, IntervieweeStatus]> = [
      ['RSVPED', 'NOT_INTERVIEWED'],
      ['CHECKED_IN', 'NOT_INTERVIEWED'],
      ['INTERVIEWING', 'INTERVIEWED'],
      ['REQUEUED', 'INTERVIEWED'],
      ['INTERVIEWED', 'INTERVIEWED'],
      ['NOT_INTERVIEWED', 'NOT_INTERVIEWED'],
      ['CANCELLED', 'CANCELLED'],
    ];
    for (const [stored, expected] of cases) {
      assert.equal(settleInterviewee(stored, 'ENDED'), expected, stored);
      assert.equal(settleInterviewee(stored, 'ARCHIVED'), expected, stored);
      assert.equal(settleInterviewee(stored, 'STARTED'), stored, stored);
    }
  });
});

describe('SWEEP_INTERVAL_MS', () => {
  it('defaults to 30 seconds, takes 0 to turn the sweeper off, and refuses nonsense', () => {
    assert.equal(loadConfig({}).sweepIntervalMs, 30_000);
    assert.equal(loadConfig({ SWEEP_INTERVAL_MS: '0' }).sweepIntervalMs, 0);
    assert.equal(loadConfig({ SWEEP_INTERVAL_MS: '250' }).sweepIntervalMs, 250);
    for (const bad of ['-1', '1.5', 'soon', '2147483648']) {
      assert.throws(
        () => loadConfig({ SWEEP_INTERVAL_MS: bad }),
        (error: Error) => error instanceof ConfigError && /SWEEP_INTERVAL_MS/.test(error.message),
        bad,
      );
    }
  });
});

const READ = `query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events {
  id status intervieweesConnection { interviewees { status } }
} } }`;
const SET_TITLE = `mutation($id: ID!) {
  updateVirtualInterviewEvent(input: { setTitle: { id: $id, title: "Later" } }) { event { id } } }`;
const CANCEL = `mutation($id: ID!) { cancelVirtualInterviewEvent(input: { id: $id }) { event { id } } }`;

type Tenant = Awaited<ReturnType<typeof insertTenant>>;

/** The interviewee states a due event may be in when its end time passes, in turn. */
const CYCLE: IntervieweeStatus[] = ['RSVPED', 'CHECKED_IN', 'INTERVIEWING', 'REQUEUED'];

/**
 * Inserts `count` STARTED events ending at `endAt`, each with an interviewee in one of CYCLE's
 * states (an INTERVIEWING one with an open record, a REQUEUED one with a closed record).
 */
async function insertOpenEvents(
  db: Database,
  tenant: Tenant,
  count: number,
  endAt: number,
): Promise<string[]> {
  const events: EventRow[] = [];
  const interviewees: IntervieweeRow[] = [];
  const records: InterviewRecordRow[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = randomUUID();
    events.push({
      id,
      employer_id: tenant.employerId,
      created_by_app_id: tenant.appId,
      created_by_user_id: tenant.userId,
      title: `Due ${index}`,
      start_at: endAt - 60 * MINUTE,
      start_offset_minutes: 0,
      end_at: endAt,
      end_offset_minutes: 0,
      timezone: 'UTC',
      language_code: null,
      country_code: null,
      media_type: 'VIDEO',
      status: 'STARTED',
      ats_name: 'Sweep test',
      employer_name: null,
      started_at: endAt - 60 * MINUTE,
      ended_at: null,
      archived_at: null,
      cancelled_at: null,
      created_at: START,
      updated_at: START,
    });
    const status = CYCLE[index % CYCLE.length]!;
    const interviewee: IntervieweeRow = {
      id: randomUUID(),
      event_id: id,
      name: `Candidate ${index}`,
      email: `candidate-${index}@example.com`,
      status,
      job_employer_job_id: null,
      job_title: null,
      job_location: null,
      checked_in_at: status === 'RSVPED' ? null : endAt - 50 * MINUTE,
      created_at: START,
      updated_at: START,
    };
    interviewees.push(interviewee);
    if (status === 'INTERVIEWING' || status === 'REQUEUED') {
      records.push({
        id: randomUUID(),
        event_id: id,
        interviewee_id: interviewee.id,
        start_at: endAt - 40 * MINUTE,
        end_at: status === 'REQUEUED' ? endAt - 30 * MINUTE : null,
        recording_url: null,
        created_at: endAt - 40 * MINUTE,
      });
    }
  }
  // Chunks keep each INSERT well under SQLite's limit on bound parameters.
  for (const [table, rows] of [
    ['interview_events', events],
    ['interviewees', interviewees],
    ['interview_records', records],
  ] as const) {
    for (let at = 0; at < rows.length; at += 100) {
      await db(table).insert(rows.slice(at, at + 100));
    }
  }
  return events.map((event) => event.id);
}

describeEachDialect('time-driven transitions', (database) => {
  const clock = new ManualClock(START);
  let service: Awaited<ReturnType<typeof startTestService>>;
  let tenant: Tenant;
  let principal: Principal;

  before(async () => {
    tenant = await insertTenant(database().db, 'time');
    principal = {
      kind: 'app',
      appId: tenant.appId,
      ownerUserId: tenant.userId,
      clientId: 'time-client',
      jti: 'time-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database(), {
      clock,
      authenticate: async () => principal,
      env: { SWEEP_INTERVAL_MS: '0' },
    });
  });
  after(async () => {
    await service?.stop();
  });

  async function api(query: string, variables: object) {
    return (await postGraphQL(service.url, 'any', { query, variables })).body;
  }

  async function apiStatuses(eventId: string) {
    const { data, errors } = await api(READ, { ids: [eventId] });
    assert.equal(errors, undefined, JSON.stringify(errors));
    const [event] = data.virtualInterviewEvents.events;
    return {
      event: event.status,
      interviewee: event.intervieweesConnection.interviewees[0].status,
    };
  }

  async function viewStatuses(eventId: string) {
    const view = await service.lifecycle.view(eventId);
    return { event: view.event.status, interviewee: view.interviewee?.status };
  }

  async function stored(eventId: string) {
    const { db } = database();
    return {
      event: await db('interview_events').where({ id: eventId }).first(),
      interviewee: await db('interviewees').where({ event_id: eventId }).first(),
      records: await db('interview_records').where({ event_id: eventId }),
    };
  }

  const sweeper = () => new InterviewSweeper(new LifecycleStore(database().db), ARCHIVE_AFTER);

  it('reads an event as ENDED once its end time passes, before any sweep; the sweep stores it', async () => {
    const [eventId] = await insertOpenEvents(database().db, tenant, 3, END);
    const [, , inTheRoom] = await insertOpenEvents(database().db, tenant, 3, END);
    clock.set(END - 1);
    assert.deepEqual(await sweeper().sweep(clock.now()), { ended: 0, archived: 0 });

    assert.deepEqual(await apiStatuses(eventId!), { event: 'STARTED', interviewee: 'RSVPED' });
    assert.deepEqual(await viewStatuses(inTheRoom!), {
      event: 'STARTED',
      interviewee: 'INTERVIEWING',
    });

    clock.set(END);
    const expected = { event: 'ENDED', interviewee: 'NOT_INTERVIEWED' };
    assert.deepEqual(await apiStatuses(eventId!), expected);
    assert.deepEqual(await viewStatuses(eventId!), expected);
    const inTheRoomExpected = { event: 'ENDED', interviewee: 'INTERVIEWED' };
    assert.deepEqual(await apiStatuses(inTheRoom!), inTheRoomExpected);
    assert.deepEqual(await viewStatuses(inTheRoom!), inTheRoomExpected);
    // The page shows the open record closed at the end time already.
    assert.equal((await service.lifecycle.view(inTheRoom!)).records[0]!.endAt, END);

    // Nothing was written by reading; writers treat the event as ended too.
    assert.equal((await stored(eventId!)).event.status, 'STARTED');
    const update = await api(SET_TITLE, { id: eventId });
    assert.match(update.errors![0]!.message, /ENDED cannot be changed/);
    const cancel = await api(CANCEL, { id: eventId });
    assert.match(cancel.errors![0]!.message, /ENDED cannot be cancelled/);
    const interviewerId = await inviteInterviewer(eventId!);
    await assert.rejects(service.lifecycle.endEvent(eventId!, interviewerId), TransitionRefused);
    assert.equal((await stored(eventId!)).event.status, 'STARTED');

    const counts = await sweeper().sweep(clock.now());
    assert.deepEqual(counts, { ended: 6, archived: 0 });
    const after = await stored(inTheRoom!);
    assert.equal(after.event.status, 'ENDED');
    assert.equal(after.event.ended_at, END);
    assert.equal(after.interviewee.status, 'INTERVIEWED');
    assert.equal(after.records[0].end_at, END);
    assert.equal((await stored(eventId!)).interviewee.status, 'NOT_INTERVIEWED');
    assert.deepEqual(await apiStatuses(inTheRoom!), inTheRoomExpected);
    assert.deepEqual(await sweeper().sweep(clock.now()), { ended: 0, archived: 0 });
  });

  it('archives ARCHIVE_AFTER_DAYS after the end, on read first and then in storage', async () => {
    const [eventId] = await insertOpenEvents(database().db, tenant, 1, END + 5 * MINUTE);
    clock.set(END + 5 * MINUTE);
    await sweeper().sweep(clock.now());
    assert.equal((await stored(eventId!)).event.status, 'ENDED');

    clock.set(END + 5 * MINUTE + ARCHIVE_AFTER - 1);
    assert.equal((await apiStatuses(eventId!)).event, 'ENDED');
    await sweeper().sweep(clock.now());
    assert.equal((await stored(eventId!)).event.status, 'ENDED');

    clock.advance(1);
    assert.deepEqual(await apiStatuses(eventId!), {
      event: 'ARCHIVED',
      interviewee: 'NOT_INTERVIEWED',
    });
    assert.equal((await viewStatuses(eventId!)).event, 'ARCHIVED');
    assert.equal((await stored(eventId!)).event.status, 'ENDED');
    assert.deepEqual(await sweeper().sweep(clock.now()), { ended: 0, archived: 1 });
    const archived = (await stored(eventId!)).event;
    assert.equal(archived.status, 'ARCHIVED');
    assert.equal(archived.archived_at, END + 5 * MINUTE + ARCHIVE_AFTER);
  });

  it('ends and archives in one sweep an event whose end passed long ago', async () => {
    const endAt = clock.now() - 2 * ARCHIVE_AFTER;
    const [eventId] = await insertOpenEvents(database().db, tenant, 1, endAt);
    assert.equal((await apiStatuses(eventId!)).event, 'ARCHIVED');
    assert.deepEqual(await sweeper().sweep(clock.now()), { ended: 1, archived: 1 });
    const { event } = await stored(eventId!);
    assert.deepEqual(
      [event.status, event.ended_at, event.archived_at],
      ['ARCHIVED', endAt, endAt + ARCHIVE_AFTER],
    );
  });

  it('applies each transition exactly once when two processes sweep at the same time', async function () {
    this.timeout(120_000);
    const workers = [
      openDatabase(database().config, silentLogger),
      openDatabase(database().config, silentLogger),
    ];
    try {
      const sweepers = workers.map(
        (db) => new InterviewSweeper(new LifecycleStore(db), ARCHIVE_AFTER),
      );
      let endAt = clock.now() + MINUTE;
      for (const due of [250, 40, 40]) {
        const ids = await insertOpenEvents(database().db, tenant, due, endAt);
        clock.set(endAt);
        const ending = await Promise.all(sweepers.map((worker) => worker.sweep(clock.now())));
        assert.equal(
          ending.reduce((sum, counts) => sum + counts.ended, 0),
          due,
          `ended by the workers: ${JSON.stringify(ending)}`,
        );
        await assertAllEnded(ids, endAt);

        clock.set(endAt + ARCHIVE_AFTER);
        const archiving = await Promise.all(sweepers.map((worker) => worker.sweep(clock.now())));
        assert.equal(
          archiving.reduce((sum, counts) => sum + counts.archived, 0),
          due,
          `archived by the workers: ${JSON.stringify(archiving)}`,
        );
        const statuses = await database()
          .db('interview_events')
          .whereIn('id', ids)
          .distinct('status');
        assert.deepEqual(statuses, [{ status: 'ARCHIVED' }]);
        endAt = clock.now() + MINUTE;
      }
    } finally {
      await Promise.all(workers.map((db) => db.destroy()));
    }
  });

  async function assertAllEnded(ids: string[], endAt: number): Promise<void> {
    const { db } = database();
    const events = await db('interview_events').whereIn('id', ids);
    assert.ok(events.every((event: EventRow) => event.status === 'ENDED'));
    assert.ok(events.every((event: EventRow) => event.ended_at === endAt));
    const interviewees: IntervieweeRow[] = await db('interviewees').whereIn('event_id', ids);
    const tally: Record<string, number> = {};
    for (const { status } of interviewees) tally[status] = (tally[status] ?? 0) + 1;
    // CYCLE's states in turn: RSVPED, CHECKED_IN → NOT_INTERVIEWED; INTERVIEWING, REQUEUED → INTERVIEWED.
    const inState = (state: number) =>
      ids.filter((_id, index) => index % CYCLE.length === state).length;
    assert.deepEqual(tally, {
      NOT_INTERVIEWED: inState(0) + inState(1),
      INTERVIEWED: inState(2) + inState(3),
    });
    const open = await db('interview_records').whereIn('event_id', ids).whereNull('end_at');
    assert.equal(open.length, 0);
    const closedAtEnd = await db('interview_records')
      .whereIn('event_id', ids)
      .where({ end_at: endAt });
    assert.equal(closedAtEnd.length, inState(2));
  }

  async function inviteInterviewer(eventId: string): Promise<string> {
    const id = randomUUID();
    await database()
      .db('interviewers')
      .insert({
        id,
        event_id: eventId,
        email: `lee-${id}@example.com`,
        email_normalized: `lee-${id}@example.com`,
        name: null,
        user_id: null,
        position: 0,
        created_at: START,
      });
    return id;
  }

  it('runs in the server every SWEEP_INTERVAL_MS, and stops with it', async () => {
    const running = await startTestService(database(), {
      clock,
      authenticate: async () => principal,
      env: { SWEEP_INTERVAL_MS: '20' },
    });
    try {
      const endAt = clock.now() + MINUTE;
      const [eventId] = await insertOpenEvents(database().db, tenant, 1, endAt);
      clock.set(endAt);
      const deadline = Date.now() + 10_000;
      while ((await stored(eventId!)).event.status !== 'ENDED') {
        assert.ok(Date.now() < deadline, 'the server swept within 10 seconds');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await running.stop();
    }
  });

  it('sweeps from the admin CLI: npm run cli -- interviews sweep', async () => {
    const endAt = clock.now() + MINUTE;
    await insertOpenEvents(database().db, tenant, 2, endAt);
    clock.set(endAt);
    let stdout = '';
    const io = { stdout: (text: string) => void (stdout += text), stderr: () => {} };
    const services = async () =>
      testCliServices(database().db, { clock, env: { ARCHIVE_AFTER_DAYS: '30' } });
    assert.equal(await runProgram(['--json', 'interviews', 'sweep'], io, services), 0);
    assert.deepEqual(JSON.parse(stdout), {
      swept_at: new Date(endAt).toISOString(),
      ended: 2,
      archived: 0,
      abandoned_interviews_ended: 0,
    });
    stdout = '';
    assert.equal(await runProgram(['interviews', 'sweep'], io, services), 0);
    assert.equal(stdout, 'Ended 0 events, archived 0 events, ended 0 abandoned interviews.\n');
  });
});
