import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../src/clock.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { composeLifecycle, type Lifecycle } from '../../src/interviews/lifecycle/compose.js';
import { TransitionRefused } from '../../src/interviews/lifecycle/interview-lifecycle.js';
import type { Principal } from '../../src/oauth/principal.js';
import { RoomService } from '../../src/room/room-service.js';
import { RoomStore } from '../../src/room/room-store.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { silentLogger } from '../support/logger.js';
import { startTestService } from '../support/service.js';

const MINUTE = 60_000;
/** The clock starts here; events run from 10:00 to 11:00 that day. */
const MORNING = Date.UTC(2027, 2, 1, 9, 0);
const END = MORNING + 120 * MINUTE;
const GRACE = 2 * MINUTE;
const ROUNDS = 4;

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event {
    id
    interviewersConnection { interviewers { id } }
    intervieweesConnection { interviewees { id } }
  } } }`;

/** One "process": its own database handle, its lifecycle and room over it. */
interface Worker {
  lifecycle: Lifecycle;
  room: RoomService;
}

/**
 * Transitions of one interview that race, from two processes (two database handles): the
 * lifecycle locks the event for each, so they take turns, whoever the caller (the lobby, the
 * room, the sweeper), and the state at the end is one the state machines allow.
 */
describeEachDialect('interview transitions that race, from two processes', (database) => {
  const clock = new ManualClock(MORNING);
  let service: Awaited<ReturnType<typeof startTestService>>;
  let second: Database;
  let workers: [Worker, Worker];
  let principal: Principal;

  function worker(db: Database): Worker {
    const lifecycle = composeLifecycle(testSharedDependencies(db, { clock }));
    const rules = { maxVideoParticipants: 4, emptyGraceMs: GRACE };
    return { lifecycle, room: new RoomService(new RoomStore(db), lifecycle.room, clock, rules) };
  }

  before(async () => {
    const tenant = await insertTenant(database().db, 'races');
    principal = {
      kind: 'app',
      appId: tenant.appId,
      ownerUserId: tenant.userId,
      clientId: 'races-client',
      jti: 'races-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database(), { clock, authenticate: async () => principal });
    second = openDatabase(database().config, silentLogger);
    workers = [worker(database().db), worker(second)];
  });
  after(async () => {
    await second?.destroy();
    await service?.stop();
  });

  /** Scheduled 10:00–11:00, checked in at 9:55, admitted at 10:00 by the first interviewer. */
  async function admitted() {
    clock.set(MORNING);
    const { body } = await postGraphQL(service.url, 'scheduler', {
      query: CREATE,
      variables: {
        input: {
          title: 'Race round',
          startTime: new Date(MORNING + 60 * MINUTE).toISOString(),
          endTime: new Date(END).toISOString(),
          timezone: 'Europe/London',
          mediaType: 'VIDEO',
          interviewers: [{ email: 'lee@example.com' }],
          interviewee: { name: 'Casey Candidate', email: 'casey@example.com' },
          requestMetadata: { atsName: 'Race test' },
        },
      },
    });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const event = body.data.createVirtualInterviewEvent.event;
    const ids = {
      eventId: event.id as string,
      intervieweeId: event.intervieweesConnection.interviewees[0].id as string,
      interviewerId: event.interviewersConnection.interviewers[1].id as string,
    };
    clock.set(MORNING + 55 * MINUTE);
    await service.lifecycle.checkIn(ids.eventId, ids.intervieweeId);
    clock.set(MORNING + 60 * MINUTE);
    await service.lifecycle.admit(ids.eventId, ids.interviewerId);
    return ids;
  }

  async function stored(eventId: string) {
    const { db } = database();
    return {
      event: await db('interview_events').where({ id: eventId }).first(),
      interviewee: await db('interviewees').where({ event_id: eventId }).first(),
      records: await db('interview_records').where({ event_id: eventId }).orderBy('created_at'),
      connections: await db('room_connections').where({ event_id: eventId }),
    };
  }

  /** Only refusals, worded for the person; anything else fails the test. */
  function onlyRefusals(results: PromiseSettledResult<unknown>[]): number {
    let refused = 0;
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      assert.ok(result.reason instanceof TransitionRefused, String(result.reason));
      refused += 1;
    }
    return refused;
  }

  it('starts the grace period once when everyone leaves the room at the same moment', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { eventId, intervieweeId, interviewerId } = await admitted();
      clock.set(MORNING + 62 * MINUTE);
      // The interviewer in three tabs and the interviewee, held by both processes.
      const tabs = [randomUUID(), randomUUID(), randomUUID()];
      const casey = randomUUID();
      for (const [index, tab] of tabs.entries()) {
        const participant = { role: 'interviewer', id: interviewerId } as const;
        await workers[index % 2]!.room.enter(eventId, participant, tab, true);
      }
      await workers[1].room.enter(eventId, { role: 'interviewee', id: intervieweeId }, casey, true);

      clock.set(MORNING + 70 * MINUTE);
      const left = await Promise.all([
        ...[...tabs, casey].map((id, index) => workers[index % 2]!.room.leave(eventId, id)),
        // The same departure twice (a close after a leave): only one takes it out.
        workers[1].room.leave(eventId, tabs[0]!),
      ]);
      assert.equal(left.filter(Boolean).length, 4, `left: ${JSON.stringify(left)}`);
      const after = await stored(eventId);
      assert.deepEqual(after.connections, []);
      // Whichever departure came second saw the empty room: the grace period started.
      assert.equal(after.records[0].room_emptied_at, MORNING + 70 * MINUTE);

      clock.set(MORNING + 70 * MINUTE + GRACE);
      const ended = await Promise.all(workers.map(({ room }) => room.sweep(clock.now())));
      assert.equal(ended.flat().filter((id) => id === eventId).length, 1, 'ended once');
      const swept = await stored(eventId);
      assert.equal(swept.records[0].end_at, MORNING + 70 * MINUTE);
      assert.equal(swept.interviewee.status, 'INTERVIEWED');
    }
  });

  it('ends an abandoned interview once when the sweep and the interviewer end it at the same moment', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { eventId, intervieweeId, interviewerId } = await admitted();
      clock.set(MORNING + 62 * MINUTE);
      const lee = randomUUID();
      const casey = randomUUID();
      await workers[0].room.enter(eventId, { role: 'interviewer', id: interviewerId }, lee, true);
      await workers[0].room.enter(eventId, { role: 'interviewee', id: intervieweeId }, casey, true);
      await workers[0].room.leave(eventId, casey);
      await workers[0].room.leave(eventId, lee);

      clock.set(MORNING + 62 * MINUTE + GRACE);
      const [sweepA, sweepB, ...ends] = await Promise.allSettled([
        workers[0].room.sweep(clock.now()),
        workers[1].room.sweep(clock.now()),
        workers[round % 2]!.lifecycle.service.endInterview(eventId, interviewerId),
        workers[(round + 1) % 2]!.lifecycle.service.endEvent(eventId, interviewerId),
      ]);
      const sweeps = [sweepA, sweepB].map((result) => {
        assert.equal(result?.status, 'fulfilled', String((result as PromiseRejectedResult).reason));
        return (result as PromiseFulfilledResult<string[]>).value.includes(eventId) ? 1 : 0;
      });
      onlyRefusals(ends);
      assert.equal(ends[1]!.status, 'fulfilled', 'the event ends whatever came first: it was open');
      // One of the sweeps, the interviewer's end or the event's end closed the record, once:
      // the sweep as of when the room emptied, the others at the moment of the click.
      const swept = sweeps[0]! + sweeps[1]!;
      const interviewEnded = ends[0]!.status === 'fulfilled' ? 1 : 0;
      assert.ok(swept + interviewEnded <= 1, `swept ${swept}, ended ${interviewEnded}`);
      const after = await stored(eventId);
      assert.equal(after.records.length, 1);
      assert.equal(after.records[0].end_at, swept ? MORNING + 62 * MINUTE : clock.now());
      assert.equal(after.interviewee.status, 'INTERVIEWED');
      assert.equal(after.event.status, 'ENDED');
    }
  });

  it('lets an admission and the end-time sweep take turns: never an open record in an ended event', async () => {
    for (let round = 0; round < ROUNDS * 2; round += 1) {
      const { eventId, interviewerId } = await admitted();
      await service.lifecycle.sendBack(eventId, interviewerId);
      // A moment before the end the admission is allowed; the sweep runs at the end time.
      clock.set(END - 1);
      const [admission, sweep] = await Promise.allSettled([
        workers[round % 2]!.lifecycle.service.admit(eventId, interviewerId),
        workers[(round + 1) % 2]!.lifecycle.sweeper.sweep(END),
      ]);
      assert.equal(sweep?.status, 'fulfilled', String((sweep as PromiseRejectedResult).reason));
      onlyRefusals([admission!]);
      const after = await stored(eventId);
      assert.equal(after.event.status, 'ENDED');
      assert.equal(after.event.ended_at, END);
      // The second record (if the admission came first) was closed by the sweep at the end time.
      for (const record of after.records) assert.notEqual(record.end_at, null);
      assert.equal(after.records.length, admission!.status === 'fulfilled' ? 2 : 1);
      assert.equal(after.interviewee.status, 'INTERVIEWED');
    }
  });
});
