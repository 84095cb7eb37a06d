import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { ManualClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type { WebhookDeliveryRow } from '../../src/db/rows.js';
import { composeInterviews } from '../../src/interviews/compose.js';
import { composeRecordings } from '../../src/recordings/compose.js';
import { RoomService } from '../../src/room/room-service.js';
import { RoomStore } from '../../src/room/room-store.js';
import { EndpointStore } from '../../src/webhooks/endpoint-store.js';
import { NO_WEBHOOKS, StoredWebhookOutbox, type WebhookOutbox } from '../../src/webhooks/outbox.js';
import { testAccounts, testCliServices, testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { counted, sqlDuring } from '../support/statements.js';
import { endpointRow } from '../support/webhook-rows.js';
import { temporaryRecordingsDir } from '../recordings/interview-in-progress.js';

const MINUTE = 60_000;
/** The clock starts here; the walk's event runs from 10:00 to 11:00 that day. */
const MORNING = Date.UTC(2027, 2, 1, 9, 0);
const GRACE = 2 * MINUTE;
const at = (minutes: number) => ({ epochMs: MORNING + minutes * MINUTE, offsetMinutes: 0 });

type Tenant = Awaited<ReturnType<typeof insertTenant>>;

/**
 * What partners hear of an interview (docs/webhooks.md "Event types"): every committed change
 * writes its deliveries in its own transaction, with the documented type, subject, sequence and
 * thin data; a change that rolls back writes none; an app without endpoints pays one statement.
 */
describeEachDialect('webhooks: the events of an interview', (database) => {
  let dir: string;
  before(() => {
    dir = temporaryRecordingsDir();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The interview capabilities as the server composes them, telling `outbox`. */
  function compose(db: Database, clock: ManualClock, outbox: WebhookOutbox) {
    const shared = testSharedDependencies(db, { clock, env: { RECORDINGS_DIR: dir } });
    const recordings = composeRecordings(shared, { outbox });
    const interviews = composeInterviews(shared, {
      accounts: testAccounts(db, clock),
      recordings,
      outbox,
    });
    const rules = { maxVideoParticipants: 4, emptyGraceMs: GRACE };
    // The room's connections; what they mean for the interview, the lifecycle writes and tells.
    const room = new RoomService(new RoomStore(db), interviews.rooms, clock, rules);
    return {
      interviews,
      recordings: recordings.service,
      finalisation: recordings.finalisation,
      room,
    };
  }

  /** An endpoint of the tenant's app that takes every type and every employer. */
  async function endpointOf(tenant: Tenant): Promise<string> {
    const id = randomUUID();
    await new EndpointStore(database().db).insert(
      endpointRow({ id, app_id: tenant.appId, created_at: MORNING, updated_at: MORNING }),
    );
    return id;
  }

  async function deliveriesTo(endpointId: string): Promise<WebhookDeliveryRow[]> {
    return database().db('webhook_deliveries').where({ endpoint_id: endpointId }).orderBy('id');
  }

  /** Each delivery as `type data-as-JSON`, in the order written, with the `v1` cut short. */
  function told(rows: readonly WebhookDeliveryRow[]): Array<[string, Record<string, unknown>]> {
    return rows.map((row) => [row.type.replace(/^interview\.|\.v1$/g, ''), JSON.parse(row.data)]);
  }

  function create(
    services: ReturnType<typeof compose>,
    tenant: Tenant,
    fields: { interviewee?: boolean; start?: number } = {},
  ) {
    const start = fields.start ?? 90;
    return services.interviews.writer.create(
      tenant.employerId,
      { userId: tenant.userId, appId: tenant.appId },
      {
        title: 'Webhook round',
        startTime: at(start),
        endTime: at(start + 60),
        timezone: 'UTC',
        interviewers: [{ email: 'lee@example.com' }],
        ...(fields.interviewee && {
          interviewee: { name: 'Casey Candidate', email: 'casey@example.com' },
        }),
        requestMetadata: { atsName: 'Webhook test' },
      },
    );
  }

  it('tells every step of an interview walked through, in order, with its ids', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'walk');
    const endpointId = await endpointOf(tenant);
    const services = compose(db, clock, new StoredWebhookOutbox());
    const { writer, lifecycle } = services.interviews;
    const { employerId } = tenant;

    const event = await create(services, tenant);
    const eventId = event.id;
    const id = eventId;
    await writer.update(employerId, { reschedule: { id, startTime: at(60), endTime: at(120) } });
    await writer.update(employerId, { setTitle: { id, title: 'Final round' } });
    await writer.update(employerId, { setTitle: { id, title: 'Final round' } }); // no news
    await writer.update(employerId, { setTimezone: { id, timezone: 'Europe/London' } });
    const sam = [{ email: 'sam@example.com' }];
    await writer.update(employerId, { addInterviewers: { id, interviewers: sam } });
    const samAgain = [{ email: 'SAM@example.com' }];
    await writer.update(employerId, { addInterviewers: { id, interviewers: samAgain } }); // no news
    const casey = { name: 'Casey Candidate', email: 'casey@example.com' };
    await writer.update(employerId, { addInterviewee: { id, interviewee: casey } });
    const interviewee = await db('interviewees').where({ event_id: eventId }).first();
    const [, lee] = await db('interviewers').where({ event_id: eventId }).orderBy('position');
    const intervieweeId: string = interviewee.id;

    clock.set(MORNING + 55 * MINUTE);
    await lifecycle.checkIn(eventId, intervieweeId);
    await lifecycle.checkIn(eventId, intervieweeId); // a reload: no news
    clock.set(MORNING + 60 * MINUTE);
    await lifecycle.admit(eventId, lee.id);
    const first = await db('interview_records').where({ event_id: eventId }).first();
    const leeIn = randomUUID();
    await services.room.enter(eventId, { role: 'interviewer', id: lee.id }, leeIn, true);
    /** Time passes while Lee stays in the room (src/room keeps a held connection seen). */
    const passTo = async (minutes: number) => {
      clock.set(MORNING + minutes * MINUTE);
      await services.room.touch([leeIn]);
    };
    await passTo(61);
    const caseyIn = randomUUID();
    await services.room.enter(eventId, { role: 'interviewee', id: intervieweeId }, caseyIn, true);
    await passTo(65);
    await lifecycle.sendBack(eventId, lee.id);
    await services.room.leave(eventId, caseyIn);
    await passTo(66);
    await lifecycle.admit(eventId, lee.id);
    const second = await db('interview_records')
      .where({ event_id: eventId })
      .whereNull('end_at')
      .first();
    await services.room.enter(
      eventId,
      { role: 'interviewee', id: intervieweeId },
      randomUUID(),
      true,
    );
    const recording = await services.recordings.start(eventId, lee.id);
    await services.recordings.appendChunk(eventId, recording.id, lee.id, 0, randomBytes(64));
    clock.set(MORNING + 80 * MINUTE);
    await services.recordings.stop(eventId, recording.id, lee.id);
    // Announced once final (here kept as recorded: random bytes are no WebM to make seekable).
    await services.finalisation.idle();
    await lifecycle.endInterview(eventId, lee.id);
    await lifecycle.recordDecision(eventId, lee.id, second.id, 'YES', 'Strong answers.');
    await lifecycle.recordDecision(eventId, lee.id, second.id, 'YES', 'Strong answers.'); // same
    clock.set(MORNING + 85 * MINUTE);
    await lifecycle.endEvent(eventId, lee.id);

    const other = await create(services, tenant, { interviewee: true });
    await writer.cancel(employerId, other.id);
    await writer.cancel(employerId, other.id); // already cancelled: no news

    const rows = await deliveriesTo(endpointId);
    const base = { eventId, employerId };
    const ids = { intervieweeId };
    assert.deepEqual(told(rows.filter((row) => row.subject === eventId)), [
      ['event.created', { ...base, status: 'SCHEDULED' }],
      ['event.updated', { ...base, status: 'SCHEDULED', change: 'rescheduled' }],
      ['event.updated', { ...base, status: 'SCHEDULED', change: 'title' }],
      ['event.updated', { ...base, status: 'SCHEDULED', change: 'timezone' }],
      ['event.updated', { ...base, status: 'SCHEDULED', change: 'interviewers_added' }],
      ['event.updated', { ...base, status: 'SCHEDULED', change: 'interviewee_added' }],
      ['event.started', { ...base, status: 'STARTED' }],
      [
        'interviewee.checked_in',
        { ...base, status: 'STARTED', ...ids, intervieweeStatus: 'CHECKED_IN' },
      ],
      [
        'interviewee.admitted',
        { ...base, status: 'STARTED', ...ids, intervieweeStatus: 'INTERVIEWING' },
      ],
      ['record.started', { ...base, status: 'STARTED', recordId: first.id, ...ids }],
      [
        'interviewee.requeued',
        { ...base, status: 'STARTED', ...ids, intervieweeStatus: 'REQUEUED' },
      ],
      ['record.ended', { ...base, status: 'STARTED', recordId: first.id, ...ids }],
      [
        'interviewee.admitted',
        { ...base, status: 'STARTED', ...ids, intervieweeStatus: 'INTERVIEWING' },
      ],
      ['record.started', { ...base, status: 'STARTED', recordId: second.id, ...ids }],
      ['recording.available', { ...base, status: 'STARTED', recordId: second.id }],
      [
        'interviewee.interviewed',
        { ...base, status: 'STARTED', ...ids, intervieweeStatus: 'INTERVIEWED' },
      ],
      ['record.ended', { ...base, status: 'STARTED', recordId: second.id, ...ids }],
      [
        'decision.recorded',
        { ...base, status: 'STARTED', recordId: second.id, interviewerId: lee.id, decision: 'YES' },
      ],
      ['event.ended', { ...base, status: 'ENDED' }],
    ]);
    assert.deepEqual(told(rows.filter((row) => row.subject === other.id)), [
      ['event.created', { eventId: other.id, employerId, status: 'SCHEDULED' }],
      ['event.cancelled', { eventId: other.id, employerId, status: 'CANCELLED' }],
    ]);

    for (const subject of [eventId, other.id]) {
      const mine = rows.filter((row) => row.subject === subject);
      assert.deepEqual(
        mine.map((row) => Number(row.sequence)),
        mine.map((_, index) => index + 1),
      );
    }
    for (const row of rows) {
      assert.equal(row.app_id, tenant.appId);
      assert.equal(row.employer_id, employerId);
      assert.equal(row.status, 'pending');
    }
    assert.equal(new Set(rows.map((row) => row.message_id)).size, rows.length);
    // `time` is each change's instant: the walk's last steps happened at 10:20 and 10:25.
    const byType = (type: string) => rows.filter((row) => row.type === type).at(-1)!;
    assert.equal(
      Number(byType('interview.recording.available.v1').occurred_at),
      MORNING + 80 * MINUTE,
    );
    assert.equal(Number(byType('interview.event.ended.v1').occurred_at), MORNING + 85 * MINUTE);
    // Nothing personal and no secret in any data.
    const everything = rows.map((row) => row.data).join('\n');
    assert.doesNotMatch(everything, /casey|lee@|sam@|Strong answers|Final round|lobby/i);
  });

  it('tells of events the clock ends and of interviews whose room stayed empty', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'clock');
    const endpointId = await endpointOf(tenant);
    const services = compose(db, clock, new StoredWebhookOutbox());
    const { lifecycle } = services.interviews;
    const [neverSeen, abandoned] = [
      await create(services, tenant, { interviewee: true, start: 60 }),
      await create(services, tenant, { interviewee: true, start: 60 }),
    ];
    const interviewee = await db('interviewees').where({ event_id: abandoned.id }).first();
    const [, lee] = await db('interviewers').where({ event_id: abandoned.id }).orderBy('position');
    clock.set(MORNING + 60 * MINUTE);
    await lifecycle.checkIn(abandoned.id, interviewee.id);
    await lifecycle.admit(abandoned.id, lee.id);
    const leeIn = randomUUID();
    const caseyIn = randomUUID();
    await services.room.enter(abandoned.id, { role: 'interviewer', id: lee.id }, leeIn, true);
    await services.room.enter(
      abandoned.id,
      { role: 'interviewee', id: interviewee.id },
      caseyIn,
      true,
    );
    clock.set(MORNING + 70 * MINUTE);
    await services.room.leave(abandoned.id, leeIn);
    await services.room.leave(abandoned.id, caseyIn);
    clock.set(MORNING + 70 * MINUTE + GRACE);
    assert.deepEqual(await services.room.sweep(clock.now()), [abandoned.id]);
    // The CLI's sweep (cron), at 11:05: both events ended by the clock.
    clock.set(MORNING + 125 * MINUTE);
    await testCliServices(db, { clock }).sweepInterviews();

    const rows = await deliveriesTo(endpointId);
    const record = await db('interview_records').where({ event_id: abandoned.id }).first();
    const neverSeenId = (await db('interviewees').where({ event_id: neverSeen.id }).first()).id;
    assert.deepEqual(told(rows.filter((row) => row.subject === neverSeen.id)), [
      [
        'event.created',
        { eventId: neverSeen.id, employerId: tenant.employerId, status: 'SCHEDULED' },
      ],
      ['event.ended', { eventId: neverSeen.id, employerId: tenant.employerId, status: 'ENDED' }],
      [
        'interviewee.not_interviewed',
        {
          eventId: neverSeen.id,
          employerId: tenant.employerId,
          status: 'ENDED',
          intervieweeId: neverSeenId,
          intervieweeStatus: 'NOT_INTERVIEWED',
        },
      ],
    ]);
    const base = { eventId: abandoned.id, employerId: tenant.employerId };
    const casey = { intervieweeId: interviewee.id };
    assert.deepEqual(told(rows.filter((row) => row.subject === abandoned.id)).slice(4), [
      ['record.started', { ...base, status: 'STARTED', recordId: record.id, ...casey }],
      [
        'interviewee.interviewed',
        { ...base, status: 'STARTED', ...casey, intervieweeStatus: 'INTERVIEWED' },
      ],
      ['record.ended', { ...base, status: 'STARTED', recordId: record.id, ...casey }],
      ['event.ended', { ...base, status: 'ENDED' }],
    ]);
    assert.equal(Number(rows.at(-1)!.occurred_at), MORNING + 125 * MINUTE);
  });

  it('writes nothing for a change that fails after its notice', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'rollback');
    const endpointId = await endpointOf(tenant);
    const stored = new StoredWebhookOutbox();
    const failing: WebhookOutbox = {
      async record(notice, tx) {
        await stored.record(notice, tx);
        throw new Error('the change fails after its notice');
      },
    };
    const healthy = compose(db, clock, stored);
    const broken = compose(db, clock, failing);
    await assert.rejects(create(broken, tenant, { interviewee: true }), /fails after its notice/);
    assert.equal(
      (await db('interview_events').where({ employer_id: tenant.employerId })).length,
      0,
    );

    const event = await create(healthy, tenant, { interviewee: true, start: 60 });
    const interviewee = await db('interviewees').where({ event_id: event.id }).first();
    clock.set(MORNING + 60 * MINUTE);
    await assert.rejects(
      broken.interviews.lifecycle.checkIn(event.id, interviewee.id),
      /fails after its notice/,
    );
    await assert.rejects(
      broken.interviews.writer.cancel(tenant.employerId, event.id),
      /fails after/,
    );
    assert.equal((await db('interviewees').where({ id: interviewee.id }).first()).status, 'RSVPED');
    assert.equal(
      (await db('interview_events').where({ id: event.id }).first()).status,
      'SCHEDULED',
    );
    assert.deepEqual(
      (await deliveriesTo(endpointId)).map((row) => row.type),
      ['interview.event.created.v1'],
    );
  });

  it('costs an app without endpoints one statement per change and writes nothing', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'silent');
    const telling = compose(db, clock, new StoredWebhookOutbox());
    const silent = compose(db, clock, NO_WEBHOOKS);
    const toldInsert = /insert into "?webhook_deliveries"?/i;

    const withOutbox = await sqlDuring(db, () => create(telling, tenant, { interviewee: true }));
    const without = await sqlDuring(db, () => create(silent, tenant, { interviewee: true }));
    assert.equal(withOutbox.sql.length, without.sql.length + 1, withOutbox.sql.join('\n'));
    assert.equal(counted(withOutbox.sql, toldInsert), 1);

    const interviewee = await db('interviewees').where({ event_id: withOutbox.result.id }).first();
    const other = await db('interviewees').where({ event_id: without.result.id }).first();
    clock.set(MORNING + 90 * MINUTE);
    const checkIn = await sqlDuring(db, () =>
      telling.interviews.lifecycle.checkIn(withOutbox.result.id, interviewee.id),
    );
    const silentCheckIn = await sqlDuring(db, () =>
      silent.interviews.lifecycle.checkIn(without.result.id, other.id),
    );
    // Two notices (the event started, the interviewee checked in): two statements.
    assert.equal(checkIn.sql.length, silentCheckIn.sql.length + 2);
    assert.equal(counted(checkIn.sql, toldInsert), 2);
    assert.equal((await db('webhook_deliveries').where({ app_id: tenant.appId })).length, 0);
  });

  it('is written by the running service for the API and the lobby', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'service');
    const endpointId = await endpointOf(tenant);
    const service = await startTestService(database(), {
      clock,
      authenticate: async () => employerAppPrincipal(tenant),
    });
    try {
      const { body } = await postGraphQL(service.url, 'scheduler', {
        query: `mutation($input: CreateVirtualInterviewEventInput!) {
          createVirtualInterviewEvent(input: $input) { event { id intervieweesConnection { interviewees { id } } } } }`,
        variables: {
          input: {
            title: 'Served round',
            startTime: new Date(MORNING + 60 * MINUTE).toISOString(),
            endTime: new Date(MORNING + 120 * MINUTE).toISOString(),
            timezone: 'UTC',
            interviewers: [],
            interviewee: { name: 'Casey Candidate', email: 'casey@example.com' },
            requestMetadata: { atsName: 'Webhook test' },
          },
        },
      });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const event = body.data.createVirtualInterviewEvent.event;
      await service.lifecycle.checkIn(event.id, event.intervieweesConnection.interviewees[0].id);
      assert.deepEqual(
        (await deliveriesTo(endpointId)).map((row) => [row.type, row.subject]),
        [
          ['interview.event.created.v1', event.id],
          ['interview.event.started.v1', event.id],
          ['interview.interviewee.checked_in.v1', event.id],
        ],
      );
    } finally {
      await service.stop();
    }
  });
});
