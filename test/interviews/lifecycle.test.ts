import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/database.js';
import { isUniqueViolation } from '../../src/db/errors.js';
import type { LobbyRole } from '../../src/interviews/vocabulary.js';
import { NotFoundError, ValidationError } from '../../src/errors.js';
import { TransitionRefused } from '../../src/interviews/lifecycle/interview-lifecycle.js';
import { InterviewLifecycleService } from '../../src/interviews/lifecycle/lifecycle-service.js';
import { LifecycleStore } from '../../src/interviews/lifecycle/lifecycle-store.js';
import { archiveDelayMs } from '../../src/interviews/lifecycle/settle.js';
import { MAX_ADMISSIONS_PER_INTERVIEWEE } from '../../src/interviews/rules/admissions.js';
import type { Principal } from '../../src/oauth/principal.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { silentLogger } from '../support/logger.js';
import { startTestService, TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';

const MINUTE = 60_000;
/** The clock starts here; events are scheduled from 10:00 to 11:00 on that day. */
const MORNING = Date.UTC(2027, 2, 1, 9, 0);

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event {
    id interviewerLobbyUrl interviewLandingPageUrl
    interviewersConnection { interviewers { id email } }
    intervieweesConnection { interviewees { id intervieweeLobbyUrl } }
  } } }`;
const CANCEL = `mutation($id: ID!) { cancelVirtualInterviewEvent(input: { id: $id }) { event { id } } }`;
const READ = `query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events {
  status
  intervieweesConnection { interviewees { status interviewRecordsConnection { records {
    id startTime endTime
    interviewOutcomesConnection { outcomes { interviewer { id } decision { value noteText } } }
  } } } }
} } }`;

interface Scheduled {
  eventId: string;
  intervieweeId: string;
  /** The creator (first) and lee@example.com. */
  interviewerIds: [string, string];
  tokens: Record<LobbyRole, string>;
}

describeEachDialect('interview lifecycle service', (database) => {
  const clock = new ManualClock(MORNING);
  let service: Awaited<ReturnType<typeof startTestService>>;
  let principal: Principal;

  before(async () => {
    const tenant = await insertTenant(database().db, 'lifecycle');
    principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'lifecycle-client',
      jti: 'lifecycle-token',
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

  async function graphql(query: string, variables: object) {
    const { body } = await postGraphQL(service.url, 'scheduler', { query, variables });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  }

  /** An event from 10:00 to 11:00 today with an interviewee and lee@example.com. */
  async function schedule(): Promise<Scheduled> {
    clock.set(MORNING);
    const data = await graphql(CREATE, {
      input: {
        title: 'Backend engineer – onsite',
        startTime: new Date(MORNING + 60 * MINUTE).toISOString(),
        endTime: new Date(MORNING + 120 * MINUTE).toISOString(),
        timezone: 'Europe/London',
        interviewers: [{ email: 'lee@example.com' }],
        interviewee: { name: 'Casey Candidate', email: 'casey@example.com' },
        requestMetadata: { atsName: 'Lifecycle test' },
      },
    });
    const event = data.createVirtualInterviewEvent.event;
    const [interviewee] = event.intervieweesConnection.interviewees;
    const tokenOf = (url: string) => url.split('/').at(-1)!;
    return {
      eventId: event.id,
      intervieweeId: interviewee.id,
      interviewerIds: event.interviewersConnection.interviewers.map(
        (interviewer: { id: string }) => interviewer.id,
      ),
      tokens: {
        landing: tokenOf(event.interviewLandingPageUrl),
        interviewer: tokenOf(event.interviewerLobbyUrl),
        interviewee: tokenOf(interviewee.intervieweeLobbyUrl),
      },
    };
  }

  /** Every stored row of the event and what hangs from it, to show that nothing changed. */
  async function storedState(eventId: string) {
    const { db } = database();
    const records = await db('interview_records').where({ event_id: eventId }).orderBy('id');
    return {
      event: await db('interview_events').where({ id: eventId }).first(),
      interviewees: await db('interviewees').where({ event_id: eventId }),
      records,
      outcomes: await db('interview_outcomes')
        .whereIn(
          'record_id',
          records.map((record: { id: string }) => record.id),
        )
        .orderBy('id'),
    };
  }

  /** The call is refused with a message matching `message`, and no stored row changes. */
  async function refused(
    eventId: string,
    call: () => Promise<unknown>,
    message: RegExp,
    kind: new (...args: any[]) => Error = TransitionRefused,
  ): Promise<void> {
    const before = await storedState(eventId);
    await assert.rejects(call(), (error: Error) => {
      assert.ok(error instanceof kind, `${error.name}: ${error.message}`);
      assert.match(error.message, message);
      return true;
    });
    assert.deepEqual(await storedState(eventId), before);
  }

  async function statuses(eventId: string) {
    const view = await service.lifecycle.view(eventId);
    return { event: view.event.status, interviewee: view.interviewee?.status };
  }

  it('resolves capability tokens by role, and nothing else', async () => {
    const { eventId, intervieweeId, tokens } = await schedule();
    const { lifecycle } = service;
    assert.deepEqual(await lifecycle.access('interviewer', tokens.interviewer), {
      role: 'interviewer',
      eventId,
      intervieweeId: null,
    });
    assert.deepEqual(await lifecycle.access('interviewee', tokens.interviewee), {
      role: 'interviewee',
      eventId,
      intervieweeId,
    });
    assert.deepEqual(await lifecycle.access('landing', tokens.landing), {
      role: 'landing',
      eventId,
      intervieweeId: null,
    });
    // A real token presented on a page of another role opens nothing.
    assert.equal(await lifecycle.access('interviewer', tokens.interviewee), null);
    assert.equal(await lifecycle.access('interviewee', tokens.interviewer), null);
    assert.equal(await lifecycle.access('landing', tokens.interviewer), null);
    // Wrong, altered, empty and oversized tokens.
    assert.equal(await lifecycle.access('interviewer', `${tokens.interviewer}x`), null);
    assert.equal(await lifecycle.access('interviewer', tokens.interviewer.slice(1)), null);
    assert.equal(await lifecycle.access('interviewer', ''), null);
    assert.equal(await lifecycle.access('interviewer', 'a'.repeat(10_000)), null);
  });

  it('finds an invited interviewer by email, letter case ignored', async () => {
    const { eventId, interviewerIds } = await schedule();
    const lee = await service.lifecycle.findInterviewer(eventId, '  LEE@Example.COM ');
    assert.deepEqual(lee, { id: interviewerIds[1], email: 'lee@example.com', name: null });
    assert.equal(await service.lifecycle.findInterviewer(eventId, 'sam@example.com'), null);
    assert.equal(await service.lifecycle.findInterviewer(randomUUID(), 'lee@example.com'), null);
  });

  it('runs an interview day: check in, admit, send back, admit again, end, decide, end the event', async () => {
    const { lifecycle } = service;
    const { eventId, intervieweeId, interviewerIds } = await schedule();
    const [creator, lee] = interviewerIds;
    const { db } = database();

    assert.deepEqual(await statuses(eventId), { event: 'SCHEDULED', interviewee: 'RSVPED' });
    await refused(eventId, () => lifecycle.admit(eventId, lee), /not checked in yet/);

    clock.set(MORNING + 55 * MINUTE);
    await lifecycle.checkIn(eventId, intervieweeId);
    assert.deepEqual(await statuses(eventId), { event: 'STARTED', interviewee: 'CHECKED_IN' });
    const started = await storedState(eventId);
    assert.equal(started.event.started_at, MORNING + 55 * MINUTE);
    assert.equal(started.interviewees[0].checked_in_at, MORNING + 55 * MINUTE);
    // Checking in again (a reload) changes nothing at all.
    clock.advance(MINUTE);
    await lifecycle.checkIn(eventId, intervieweeId);
    assert.deepEqual(await storedState(eventId), started);

    clock.set(MORNING + 60 * MINUTE);
    await lifecycle.admit(eventId, lee);
    assert.equal((await statuses(eventId)).interviewee, 'INTERVIEWING');
    await refused(eventId, () => lifecycle.admit(eventId, creator), /already in the interview/);
    // The interviewee reloading their lobby while in the room changes nothing.
    const inTheRoom = await storedState(eventId);
    await lifecycle.checkIn(eventId, intervieweeId);
    assert.deepEqual(await storedState(eventId), inTheRoom);

    clock.set(MORNING + 70 * MINUTE);
    await lifecycle.sendBack(eventId, lee);
    assert.equal((await statuses(eventId)).interviewee, 'REQUEUED');
    await refused(eventId, () => lifecycle.sendBack(eventId, lee), /already back in the lobby/);
    await refused(eventId, () => lifecycle.endInterview(eventId, lee), /waiting in the lobby/);

    clock.set(MORNING + 75 * MINUTE);
    await lifecycle.admit(eventId, creator);
    clock.set(MORNING + 100 * MINUTE);
    await lifecycle.endInterview(eventId, creator);
    assert.equal((await statuses(eventId)).interviewee, 'INTERVIEWED');
    await refused(eventId, () => lifecycle.admit(eventId, lee), /already been interviewed/);
    await refused(eventId, () => lifecycle.checkIn(eventId, intervieweeId), /interview is over/);

    const records = (await storedState(eventId)).records.sort(
      (a: { created_at: number }, b: { created_at: number }) => a.created_at - b.created_at,
    );
    // Nobody entered the room, so neither interview has a start time (src/room decides it).
    assert.deepEqual(
      records.map((record: { start_at: number | null; end_at: number }) => [
        record.start_at,
        record.end_at - MORNING,
      ]),
      [
        [null, 70 * MINUTE],
        [null, 100 * MINUTE],
      ],
    );
    const [first, second] = records.map((record: { id: string }) => record.id) as [string, string];

    // One outcome per interviewer per record; recording again replaces it.
    await lifecycle.recordDecision(eventId, lee, first, 'SKIP', null);
    await lifecycle.recordDecision(eventId, lee, second, 'YES', '  Clear thinking. ');
    await lifecycle.recordDecision(eventId, creator, second, 'MAYBE', 'Ask about tests');
    clock.advance(MINUTE);
    // A textarea's lines come with \r\n; notes are stored with \n, a lone \r included.
    await lifecycle.recordDecision(eventId, lee, second, 'NO', 'On reflection:\r\nno.\rReally.');
    const outcomes = await db('interview_outcomes').whereIn('record_id', [first, second]);
    const decisions = outcomes
      .map((o: any) => [o.record_id === first ? 1 : 2, o.interviewer_id, o.decision, o.note_text])
      .sort((a: any, b: any) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
    assert.deepEqual(
      decisions,
      [
        [1, lee, 'SKIP', null],
        [2, lee, 'NO', 'On reflection:\nno.\nReally.'],
        [2, creator, 'MAYBE', 'Ask about tests'],
      ].sort((a: any, b: any) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`)),
    );
    const edited = outcomes.find((o: any) => o.record_id === second && o.interviewer_id === lee);
    assert.ok(edited.updated_at > edited.created_at, 'the edit kept the outcome and its id');

    // Bad decisions are refused before anything is looked up.
    await refused(
      eventId,
      () => lifecycle.recordDecision(eventId, lee, second, 'PERHAPS' as 'YES', null),
      /decision must be one of YES, NO, MAYBE, SKIP/,
      ValidationError,
    );
    await refused(
      eventId,
      () => lifecycle.recordDecision(eventId, lee, second, 'YES', 'x'.repeat(5001)),
      /note must be at most 5000 characters/,
      ValidationError,
    );
    await refused(
      eventId,
      () => lifecycle.recordDecision(eventId, lee, randomUUID(), 'YES', null),
      /no such interview record/,
      NotFoundError,
    );
    await refused(
      eventId,
      () => lifecycle.recordDecision(eventId, randomUUID(), second, 'YES', null),
      /not an interviewer of this event/,
      NotFoundError,
    );

    clock.set(MORNING + 105 * MINUTE);
    await lifecycle.endEvent(eventId, lee);
    assert.deepEqual(await statuses(eventId), { event: 'ENDED', interviewee: 'INTERVIEWED' });
    assert.equal((await storedState(eventId)).event.ended_at, MORNING + 105 * MINUTE);
    await refused(eventId, () => lifecycle.endEvent(eventId, creator), /already ended/);
    await refused(eventId, () => lifecycle.checkIn(eventId, intervieweeId), /has ended/);
    await refused(eventId, () => lifecycle.admit(eventId, lee), /has ended/);

    // Decisions stay editable after the event ends, until it is archived.
    await lifecycle.recordDecision(eventId, creator, second, 'YES', null);
    clock.set(MORNING + 105 * MINUTE + archiveDelayMs(30));
    assert.equal((await statuses(eventId)).event, 'ARCHIVED');
    await refused(
      eventId,
      () => lifecycle.recordDecision(eventId, creator, second, 'NO', null),
      /archived/,
    );

    // The API returns records, outcomes and decisions exactly as stored.
    const read = await graphql(READ, { ids: [eventId] });
    const [event] = read.virtualInterviewEvents.events;
    assert.equal(event.status, 'ARCHIVED');
    const [interviewee] = event.intervieweesConnection.interviewees;
    assert.equal(interviewee.status, 'INTERVIEWED');
    const stored = await storedState(eventId);
    const apiRecords = interviewee.interviewRecordsConnection.records;
    assert.deepEqual(
      apiRecords.map((record: any) => [
        record.id,
        record.startTime && Date.parse(record.startTime),
        Date.parse(record.endTime),
      ]),
      records.map((record: any) => [record.id, record.start_at, record.end_at]),
    );
    const apiOutcomes = apiRecords.flatMap((record: any) =>
      record.interviewOutcomesConnection.outcomes.map((outcome: any) => [
        record.id,
        outcome.interviewer.id,
        outcome.decision?.value ?? null,
        outcome.decision?.noteText ?? null,
      ]),
    );
    const storedOutcomes = stored.outcomes.map((o: any) => [
      o.record_id,
      o.interviewer_id,
      o.decision,
      o.note_text,
    ]);
    // One outcome per interviewer of each record: the creator never decided on the first.
    const undecided = [first, creator, null, null];
    const byKey = (a: any, b: any) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`);
    assert.deepEqual(apiOutcomes.sort(byKey), [...storedOutcomes, undecided].sort(byKey));
    assert.equal(apiOutcomes.length, 4);
  });

  it('ends the event: never admitted → NOT_INTERVIEWED, in the room → INTERVIEWED (record closed), sent back → INTERVIEWED', async () => {
    const { lifecycle } = service;
    const endedWhile = async (steps: (ids: Scheduled) => Promise<void>) => {
      const scheduled = await schedule();
      clock.set(MORNING + 60 * MINUTE);
      await steps(scheduled);
      clock.set(MORNING + 90 * MINUTE);
      await lifecycle.endEvent(scheduled.eventId, scheduled.interviewerIds[0]);
      const state = await storedState(scheduled.eventId);
      return {
        event: state.event.status,
        interviewee: state.interviewees[0].status,
        openRecords: state.records.filter((record: any) => record.end_at === null).length,
        lastRecordEnd: state.records.at(-1)?.end_at ?? null,
      };
    };
    assert.deepEqual(await endedWhile(async () => {}), {
      event: 'ENDED',
      interviewee: 'NOT_INTERVIEWED',
      openRecords: 0,
      lastRecordEnd: null,
    });
    assert.deepEqual(
      await endedWhile(({ eventId, intervieweeId }) => lifecycle.checkIn(eventId, intervieweeId)),
      { event: 'ENDED', interviewee: 'NOT_INTERVIEWED', openRecords: 0, lastRecordEnd: null },
    );
    assert.deepEqual(
      await endedWhile(async ({ eventId, intervieweeId, interviewerIds }) => {
        await lifecycle.checkIn(eventId, intervieweeId);
        await lifecycle.admit(eventId, interviewerIds[1]);
      }),
      {
        event: 'ENDED',
        interviewee: 'INTERVIEWED',
        openRecords: 0,
        lastRecordEnd: MORNING + 90 * MINUTE,
      },
    );
    assert.deepEqual(
      await endedWhile(async ({ eventId, intervieweeId, interviewerIds }) => {
        await lifecycle.checkIn(eventId, intervieweeId);
        await lifecycle.admit(eventId, interviewerIds[1]);
        clock.advance(MINUTE);
        await lifecycle.sendBack(eventId, interviewerIds[1]);
      }),
      {
        event: 'ENDED',
        interviewee: 'INTERVIEWED',
        openRecords: 0,
        lastRecordEnd: MORNING + 61 * MINUTE,
      },
    );
  });

  it('refuses every action on a cancelled event, and cancelling closes an open record', async () => {
    const { lifecycle } = service;
    const { eventId, intervieweeId, interviewerIds } = await schedule();
    const [creator, lee] = interviewerIds;
    clock.set(MORNING + 60 * MINUTE);
    await lifecycle.checkIn(eventId, intervieweeId);
    await lifecycle.admit(eventId, lee);
    clock.set(MORNING + 65 * MINUTE);
    await graphql(CANCEL, { id: eventId });
    const state = await storedState(eventId);
    assert.equal(state.event.status, 'CANCELLED');
    assert.equal(state.interviewees[0].status, 'CANCELLED');
    assert.equal(state.records[0].end_at, MORNING + 65 * MINUTE);

    await refused(eventId, () => lifecycle.checkIn(eventId, intervieweeId), /was cancelled/);
    await refused(eventId, () => lifecycle.admit(eventId, creator), /was cancelled/);
    await refused(eventId, () => lifecycle.sendBack(eventId, creator), /was cancelled/);
    await refused(eventId, () => lifecycle.endInterview(eventId, creator), /was cancelled/);
    await refused(eventId, () => lifecycle.endEvent(eventId, creator), /was cancelled/);
    assert.deepEqual(await statuses(eventId), { event: 'CANCELLED', interviewee: 'CANCELLED' });
  });

  it('refuses unknown events and people with NotFoundError', async () => {
    const { lifecycle } = service;
    const { eventId, intervieweeId } = await schedule();
    const other = await schedule();
    await assert.rejects(lifecycle.view(randomUUID()), NotFoundError);
    await assert.rejects(lifecycle.checkIn(randomUUID(), intervieweeId), NotFoundError);
    await refused(
      eventId,
      () => lifecycle.checkIn(eventId, other.intervieweeId),
      /not the interviewee/,
      NotFoundError,
    );
    await refused(
      eventId,
      () => lifecycle.admit(eventId, other.interviewerIds[1]),
      /not an interviewer/,
      NotFoundError,
    );
  });

  it('lets exactly one of many simultaneous admits through, from two processes', async () => {
    const second = openDatabase(database().config, silentLogger);
    try {
      const elsewhere = new InterviewLifecycleService(
        new LifecycleStore(second),
        new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'lobby-tokens'),
        service.config.publicUrl,
        clock,
        archiveDelayMs(30),
      );
      for (let round = 0; round < 3; round += 1) {
        const { eventId, intervieweeId, interviewerIds } = await schedule();
        clock.set(MORNING + 60 * MINUTE);
        await service.lifecycle.checkIn(eventId, intervieweeId);
        const results = await Promise.allSettled(
          [service.lifecycle, elsewhere, service.lifecycle, elsewhere].map((lifecycle, index) =>
            lifecycle.admit(eventId, interviewerIds[index % 2]!),
          ),
        );
        const failures = results.flatMap((result) =>
          result.status === 'rejected' ? [result.reason as Error] : [],
        );
        assert.equal(results.length - failures.length, 1, 'exactly one admit succeeds');
        for (const failure of failures) {
          assert.ok(failure instanceof TransitionRefused, String(failure));
          assert.match(failure.message, /already in the interview room|just admitted/);
        }
        const state = await storedState(eventId);
        assert.equal(state.records.length, 1);
        assert.equal(state.records[0].end_at, null);
        assert.equal(state.interviewees[0].status, 'INTERVIEWING');
      }
    } finally {
      await second.destroy();
    }
  });

  it(`admits one interviewee at most ${MAX_ADMISSIONS_PER_INTERVIEWEE} times, then refuses and changes nothing`, async () => {
    const { lifecycle } = service;
    const { eventId, intervieweeId, interviewerIds } = await schedule();
    const [creator, lee] = interviewerIds;
    clock.set(MORNING + 60 * MINUTE);
    await lifecycle.checkIn(eventId, intervieweeId);
    for (let admission = 0; admission < MAX_ADMISSIONS_PER_INTERVIEWEE; admission += 1) {
      clock.advance(MINUTE);
      await lifecycle.admit(eventId, admission % 2 ? creator : lee);
      await lifecycle.sendBack(eventId, lee);
    }
    await refused(
      eventId,
      () => lifecycle.admit(eventId, creator),
      new RegExp(`admitted ${MAX_ADMISSIONS_PER_INTERVIEWEE} times, the most one event allows`),
    );
    const view = await lifecycle.view(eventId);
    assert.equal(view.records.length, MAX_ADMISSIONS_PER_INTERVIEWEE);
    assert.equal(view.interviewee?.status, 'REQUEUED');
    // Ending the event still works, and makes the interviewee INTERVIEWED.
    await lifecycle.endEvent(eventId, creator);
    assert.deepEqual(await statuses(eventId), { event: 'ENDED', interviewee: 'INTERVIEWED' });
  });

  it('has the partial unique index refuse a second open record for one interviewee', async () => {
    const { eventId, intervieweeId } = await schedule();
    const { db } = database();
    const record = () => ({
      id: randomUUID(),
      event_id: eventId,
      interviewee_id: intervieweeId,
      start_at: MORNING,
      end_at: null,
      recording_url: null,
      created_at: MORNING,
    });
    const open = record();
    await db('interview_records').insert(open);
    await assert.rejects(db('interview_records').insert(record()), (error) =>
      isUniqueViolation(error),
    );
    await db('interview_records')
      .where({ id: open.id })
      .update({ end_at: MORNING + 1 });
    await db('interview_records').insert(record());
  });
});
