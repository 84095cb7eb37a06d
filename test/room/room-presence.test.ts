import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../src/clock.js';
import { TransitionRefused } from '../../src/interviews/lifecycle/interview-lifecycle.js';
import { composeLifecycle } from '../../src/interviews/lifecycle/compose.js';
import type { Principal } from '../../src/oauth/principal.js';
import { CONNECTION_ORPHANED_AFTER_MS, RoomService } from '../../src/room/room-service.js';
import { RoomStore } from '../../src/room/room-store.js';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices, testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const MINUTE = 60_000;
/** The clock starts here; events run from 10:00 to 11:00 that day. */
const MORNING = Date.UTC(2027, 2, 1, 9, 0);
const GRACE = 2 * MINUTE;

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event {
    id
    interviewersConnection { interviewers { id email } }
    intervieweesConnection { interviewees { id } }
  } } }`;

interface Scheduled {
  eventId: string;
  intervieweeId: string;
  /** The creator first, then the invited interviewers in order. */
  interviewerIds: string[];
}

/**
 * Who is in an interview room, and what the record's times mean as a result (DESIGN §5): the
 * start is the first moment the interviewee and an interviewer are both connected; an interview
 * whose room stays empty past the grace period ends when it emptied. Driven by a manual clock.
 */
describeEachDialect('interview room presence and record times', (database) => {
  const clock = new ManualClock(MORNING);
  let service: Awaited<ReturnType<typeof startTestService>>;
  let room: RoomService;

  async function start() {
    service = await startTestService(database(), {
      clock,
      authenticate: async () => principal,
      env: { ROOM_EMPTY_GRACE_SECONDS: String(GRACE / 1000), ROOM_MAX_VIDEO_PARTICIPANTS: '4' },
    });
    const lifecycle = composeLifecycle(testSharedDependencies(database().db, { clock }));
    room = new RoomService(new RoomStore(database().db), lifecycle.room, clock, {
      maxVideoParticipants: 4,
      emptyGraceMs: GRACE,
    });
  }

  let principal: Principal;
  before(async () => {
    const tenant = await insertTenant(database().db, 'presence');
    principal = {
      kind: 'app',
      appId: tenant.appId,
      ownerUserId: tenant.userId,
      clientId: 'presence-client',
      jti: 'presence-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    await start();
  });
  after(async () => {
    await service?.stop();
  });

  async function schedule(interviewers = ['lee@example.com'], mediaType = 'VIDEO') {
    clock.set(MORNING);
    const { body } = await postGraphQL(service.url, 'scheduler', {
      query: CREATE,
      variables: {
        input: {
          title: 'Presence round',
          startTime: new Date(MORNING + 60 * MINUTE).toISOString(),
          endTime: new Date(MORNING + 120 * MINUTE).toISOString(),
          timezone: 'Europe/London',
          mediaType,
          interviewers: interviewers.map((email) => ({ email })),
          interviewee: { name: 'Casey Candidate', email: 'casey@example.com' },
          requestMetadata: { atsName: 'Presence test' },
        },
      },
    });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const event = body.data.createVirtualInterviewEvent.event;
    return {
      eventId: event.id,
      intervieweeId: event.intervieweesConnection.interviewees[0].id,
      interviewerIds: event.interviewersConnection.interviewers.map((i: { id: string }) => i.id),
    } satisfies Scheduled;
  }

  /** Checked in at 9:55 and admitted at 10:00 by the first invited interviewer. */
  async function admitted(interviewers?: string[], mediaType?: string): Promise<Scheduled> {
    const event = await schedule(interviewers, mediaType);
    clock.set(MORNING + 55 * MINUTE);
    await service.lifecycle.checkIn(event.eventId, event.intervieweeId);
    clock.set(MORNING + 60 * MINUTE);
    await service.lifecycle.admit(event.eventId, event.interviewerIds[1]!);
    return event;
  }

  async function record(eventId: string) {
    const rows = await database()
      .db('interview_records')
      .where({ event_id: eventId })
      .orderBy('created_at');
    return rows.at(-1) as { start_at: number | null; end_at: number | null; id: string };
  }

  /** Connections this test's "process" holds and keeps alive, as src/room's heartbeat does. */
  const held = new Set<string>();

  /** Lets time pass to `at`, touching the held connections every 20 s on the way. */
  async function passTo(at: number): Promise<void> {
    while (clock.now() < at) {
      clock.set(Math.min(at, clock.now() + 20_000));
      await room.touch([...held]);
    }
  }

  async function intervieweeStatus(eventId: string): Promise<string> {
    const row = await database().db('interviewees').where({ event_id: eventId }).first();
    return row.status;
  }

  /** Enters the room on a new connection, which stays held until it leaves; returns its id. */
  async function enter(event: Scheduled, who: 'interviewer' | 'interviewee', index = 1) {
    const id = randomUUID();
    const entry = await room.enter(
      event.eventId,
      who === 'interviewer'
        ? { role: 'interviewer', id: event.interviewerIds[index]! }
        : { role: 'interviewee', id: event.intervieweeId },
      id,
      true,
    );
    held.add(id);
    return { id, ...entry };
  }

  async function leave(event: Scheduled, id: string): Promise<void> {
    held.delete(id);
    await room.leave(event.eventId, id);
  }

  afterEach(() => held.clear());

  /** Which of `events` the sweep ended (other tests' rooms may end in the same sweep). */
  async function sweptEnding(...events: Scheduled[]): Promise<string[]> {
    const ended = await room.sweep(clock.now());
    return events.map((event) => event.eventId).filter((id) => ended.includes(id));
  }

  it('starts the record only once the interviewee and an interviewer are both in the room', async () => {
    const event = await admitted();
    assert.equal((await record(event.eventId)).start_at, null, 'admission alone starts nothing');

    await passTo(MORNING + 61 * MINUTE);
    await enter(event, 'interviewer');
    assert.equal((await record(event.eventId)).start_at, null, 'an interviewer alone');

    await passTo(MORNING + 63 * MINUTE);
    const casey = await enter(event, 'interviewee');
    assert.equal((await record(event.eventId)).start_at, MORNING + 63 * MINUTE);

    // Leaving and coming back does not move the start.
    await passTo(MORNING + 65 * MINUTE);
    await leave(event, casey.id);
    await passTo(MORNING + 66 * MINUTE);
    await enter(event, 'interviewee');
    assert.equal((await record(event.eventId)).start_at, MORNING + 63 * MINUTE);

    // The API reports it as stored.
    const { body } = await postGraphQL(service.url, 'scheduler', {
      query: `query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events {
        intervieweesConnection { interviewees { interviewRecordsConnection { records { startTime endTime } } } }
      } } }`,
      variables: { ids: [event.eventId] },
    });
    const [apiRecord] =
      body.data.virtualInterviewEvents.events[0].intervieweesConnection.interviewees[0]
        .interviewRecordsConnection.records;
    assert.equal(Date.parse(apiRecord.startTime), MORNING + 63 * MINUTE);
    assert.equal(apiRecord.endTime, null);
  });

  it('lets interviewers wait in the room, the interviewee only once admitted, nobody after the end', async () => {
    const event = await schedule();
    await assert.rejects(enter(event, 'interviewee'), (error: Error) => {
      assert.ok(error instanceof TransitionRefused);
      assert.match(error.message, /not been let into the room yet/);
      return true;
    });
    clock.set(MORNING + 50 * MINUTE);
    await enter(event, 'interviewer');
    const stored = await database().db('interview_events').where({ id: event.eventId }).first();
    assert.equal(stored.status, 'STARTED', 'an interviewer entering starts the event');
    await assert.rejects(
      room.enter(event.eventId, { role: 'interviewer', id: randomUUID() }, randomUUID(), true),
      /not an interviewer of this event/,
    );
    clock.set(MORNING + 121 * MINUTE);
    await assert.rejects(enter(event, 'interviewer'), /has ended/);
  });

  it('ends an interview whose room stayed empty past the grace period, as of when it emptied', async () => {
    const event = await admitted();
    clock.set(MORNING + 62 * MINUTE);
    const lee = await enter(event, 'interviewer');
    const casey = await enter(event, 'interviewee');

    await passTo(MORNING + 70 * MINUTE);
    await leave(event, casey.id);
    await leave(event, lee.id);
    await passTo(MORNING + 71 * MINUTE);
    assert.deepEqual(await sweptEnding(event), [], 'still within the grace period');

    // Somebody came back in time: the grace period starts again when the room empties again.
    const back = await enter(event, 'interviewer');
    await passTo(MORNING + 73 * MINUTE);
    assert.deepEqual(await sweptEnding(event), []);
    await leave(event, back.id);
    await passTo(MORNING + 73 * MINUTE + GRACE - 1);
    assert.deepEqual(await sweptEnding(event), []);
    await passTo(MORNING + 73 * MINUTE + GRACE);
    assert.deepEqual(await sweptEnding(event), [event.eventId]);
    const ended = await record(event.eventId);
    assert.equal(ended.start_at, MORNING + 62 * MINUTE);
    assert.equal(ended.end_at, MORNING + 73 * MINUTE);
    assert.equal(await intervieweeStatus(event.eventId), 'INTERVIEWED');
    assert.deepEqual(await sweptEnding(event), [], 'a second sweep finds nothing');
  });

  it('ends an abandoned interview from the admin CLI too: npm run cli -- interviews sweep', async () => {
    const event = await admitted();
    clock.set(MORNING + 62 * MINUTE);
    const lee = await enter(event, 'interviewer');
    const casey = await enter(event, 'interviewee');
    await passTo(MORNING + 70 * MINUTE);
    await leave(event, casey.id);
    await leave(event, lee.id);
    await passTo(MORNING + 70 * MINUTE + GRACE);

    let stdout = '';
    const io = { stdout: (text: string) => void (stdout += text), stderr: () => {} };
    const services = async () =>
      testCliServices(database().db, {
        clock,
        env: { ROOM_EMPTY_GRACE_SECONDS: String(GRACE / 1000) },
      });
    assert.equal(await runProgram(['--json', 'interviews', 'sweep'], io, services), 0);
    // Other tests' rooms may end in the same sweep: at least this one did.
    assert.ok(JSON.parse(stdout).abandoned_interviews_ended >= 1, stdout);
    assert.equal((await record(event.eventId)).end_at, MORNING + 70 * MINUTE);
    assert.equal(await intervieweeStatus(event.eventId), 'INTERVIEWED');
    assert.deepEqual(await sweptEnding(event), [], 'nothing left for the servers');
  });

  it('takes connections of a dead process for gone, as of when they were last seen', async () => {
    const event = await admitted();
    clock.set(MORNING + 62 * MINUTE);
    await enter(event, 'interviewer');
    await enter(event, 'interviewee');
    const seen = MORNING + 62 * MINUTE;
    // Nobody moves seen_at forward: the process holding both connections died.
    clock.set(seen + CONNECTION_ORPHANED_AFTER_MS + 1);
    assert.deepEqual(await sweptEnding(event), []);
    const left = await database().db('room_connections').where({ event_id: event.eventId });
    assert.deepEqual(left, []);
    clock.set(seen + GRACE);
    assert.deepEqual(await sweptEnding(event), [event.eventId]);
    assert.equal((await record(event.eventId)).end_at, seen);
  });

  it('keeps connections that their process still touches', async () => {
    const event = await admitted();
    clock.set(MORNING + 62 * MINUTE);
    const { id } = await enter(event, 'interviewer');
    await passTo(clock.now() + 5 * CONNECTION_ORPHANED_AFTER_MS);
    await room.sweep(clock.now());
    const kept = await database().db('room_connections').where({ id });
    assert.equal(kept.length, 1);
  });

  it('gives video to at most the configured number of people and none on a phone interview', async () => {
    const emails = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `${name}@example.com`);
    const event = await admitted(emails);
    clock.set(MORNING + 62 * MINUTE);
    const entries = await Promise.all(
      event.interviewerIds.map((_id, index) => enter(event, 'interviewer', index)),
    );
    assert.equal(entries.filter((entry) => entry.video).length, 4);
    const refused = entries.filter((entry) => !entry.video);
    assert.equal(refused.length, event.interviewerIds.length - 4);
    for (const entry of refused) assert.match(entry.videoRefusal ?? '', /audio only/);

    const phone = await admitted(['lee@example.com'], 'PHONE');
    clock.set(MORNING + 62 * MINUTE);
    const call = await enter(phone, 'interviewer');
    assert.equal(call.video, false);
    assert.equal(call.videoRefusal, null, 'nothing to explain on a phone interview');
  });

  it('decides the start exactly once when everyone enters at the same moment, and keeps it', async () => {
    const events: Scheduled[] = [];
    for (let i = 0; i < 6; i += 1)
      events.push(await admitted(['lee@example.com', 'sam@example.com']));
    clock.set(MORNING + 62 * MINUTE);
    await Promise.all(
      events.flatMap((event) => [
        enter(event, 'interviewee'),
        enter(event, 'interviewer', 1),
        enter(event, 'interviewer', 2),
      ]),
    );
    for (const event of events) {
      assert.equal((await record(event.eventId)).start_at, MORNING + 62 * MINUTE);
      const present = await database().db('room_connections').where({ event_id: event.eventId });
      assert.equal(present.length, 3);
    }
    // The next write still works, and everything stays through a restart.
    const next = events[0]!;
    await service.lifecycle.endInterview(next.eventId, next.interviewerIds[1]!);
    await service.stop();
    await start();
    for (const event of events) {
      assert.equal((await record(event.eventId)).start_at, MORNING + 62 * MINUTE);
    }
    assert.equal((await record(next.eventId)).end_at, MORNING + 62 * MINUTE);
  });
});
