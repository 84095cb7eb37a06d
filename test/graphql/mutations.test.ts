import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';
import { ManualClock } from '../../src/clock.js';

const EVENT_FIELDS = `
  id title startTime endTime timezone languageCode countryCode status mediaType
  interviewerLobbyUrl interviewLandingPageUrl
  interviewersConnection { totalCount interviewers { email name } }
  intervieweesConnection {
    totalCount
    interviewees {
      name email status intervieweeLobbyUrl
      job { __typename ... on EmployerJob { id } ... on VirtualInterviewJobInfo { title location } }
    }
  }
`;
const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { ${EVENT_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateVirtualInterviewEventInput!) {
  updateVirtualInterviewEvent(input: $input) { event { ${EVENT_FIELDS} } } }`;
const CANCEL = `mutation($id: ID!) {
  cancelVirtualInterviewEvent(input: { id: $id }) { event { id status intervieweesConnection { interviewees { status } } } } }`;

const TABLES = ['interview_events', 'interviewers', 'interviewees', 'lobby_tokens'];

function createInput(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Backend engineer – onsite',
    startTime: '2026-12-01T09:00:00-05:00',
    endTime: '2026-12-01T10:00:00-05:00',
    timezone: 'America/New_York',
    interviewers: [{ email: 'lee@example.com' }],
    requestMetadata: { atsName: 'Acme ATS', employerName: 'Acme' },
    ...overrides,
  };
}

describeEachDialect('Interview API mutations', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let creatorEmail: string;
  const principals: Record<string, Principal> = {};

  before(async () => {
    const { db } = database();
    const mine = await insertTenant(db, 'mine');
    const theirs = await insertTenant(db, 'theirs');
    creatorEmail = (await db('users').where({ id: mine.userId }).first()).email;
    principals.mine = {
      kind: 'user',
      userId: mine.userId,
      appId: mine.appId,
      clientId: 'c1',
      jti: 'j1',
      employerId: mine.employerId,
      scopes: ['employer_access'],
    };
    principals.app = {
      kind: 'app',
      appId: mine.appId,
      ownerUserId: mine.userId,
      clientId: 'c1',
      jti: 'j2',
      employerId: mine.employerId,
      scopes: ['employer_access'],
    };
    principals.theirs = {
      kind: 'user',
      userId: theirs.userId,
      appId: theirs.appId,
      clientId: 'c2',
      jti: 'j3',
      employerId: theirs.employerId,
      scopes: ['employer_access'],
    };
    principals.noEmployer = { ...principals.mine, employerId: null } as Principal;
    service = await startTestService(database(), {
      clock: new ManualClock(Date.UTC(2026, 10, 1)),
      authenticate: async (token) => principals[token] ?? null,
    });
  });
  after(async () => {
    await service?.stop();
  });

  async function gql(query: string, variables: object, token = 'mine') {
    return (await postGraphQL(service.url, token, { query, variables })).body;
  }

  async function counts(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const table of TABLES) {
      const [row] = await database().db(table).count({ count: '*' });
      result[table] = Number(row?.count);
    }
    return result;
  }

  /** Runs a mutation that must fail with `code` (and a message matching `message`), writing nothing. */
  async function refused(
    query: string,
    variables: object,
    code: string,
    message: RegExp,
    token = 'mine',
  ) {
    const before = await counts();
    const eventsBefore = await database().db('interview_events').orderBy('id');
    const body = await gql(query, variables, token);
    assert.ok(body.errors?.length, `expected an error, got ${JSON.stringify(body.data)}`);
    assert.equal(body.errors[0]!.extensions.code, code, body.errors[0]!.message);
    assert.match(body.errors[0]!.message, message);
    assert.deepEqual(await counts(), before, 'nothing was written');
    assert.deepEqual(
      await database().db('interview_events').orderBy('id'),
      eventsBefore,
      'no event changed',
    );
  }

  async function created(overrides: Record<string, unknown> = {}, token = 'mine') {
    const body = await gql(CREATE, { input: createInput(overrides) }, token);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.createVirtualInterviewEvent.event;
  }

  describe('createVirtualInterviewEvent', () => {
    it('creates the event, its interviewers with the creator first, the interviewee and the lobby URLs', async () => {
      const event = await created({
        interviewers: [
          { email: 'Lee@Example.com' },
          { email: 'lee@example.com' },
          { email: 'sam@example.com' },
        ],
        interviewee: {
          name: 'Casey',
          email: 'casey@example.com',
          job: { title: 'Backend engineer', location: 'Remote' },
        },
        languageCode: 'en',
        countryCode: 'GB',
        startTime: '2026-12-01T14:00:00Z',
        endTime: '2026-12-01T20:30:00+05:30',
      });
      assert.equal(event.status, 'SCHEDULED');
      assert.equal(event.mediaType, 'VIDEO');
      assert.equal(event.startTime, '2026-12-01T14:00:00Z');
      assert.equal(event.endTime, '2026-12-01T20:30:00+05:30');
      assert.deepEqual(
        event.interviewersConnection.interviewers.map((i: { email: string }) => i.email),
        [creatorEmail, 'Lee@Example.com', 'sam@example.com'],
      );
      assert.equal(event.interviewersConnection.totalCount, 3);
      const [interviewee] = event.intervieweesConnection.interviewees;
      assert.equal(interviewee.status, 'RSVPED');
      assert.deepEqual(interviewee.job, {
        __typename: 'VirtualInterviewJobInfo',
        title: 'Backend engineer',
        location: 'Remote',
      });
      assert.match(interviewee.intervieweeLobbyUrl, /\/lobby\/interviewee\/[A-Za-z0-9_-]{43}$/);
      assert.match(event.interviewerLobbyUrl, /\/lobby\/interviewer\/[A-Za-z0-9_-]{43}$/);
      assert.match(event.interviewLandingPageUrl, /\/interviews\/[A-Za-z0-9_-]{43}$/);
      const stored = await database().db('lobby_tokens').where({ event_id: event.id });
      assert.equal(stored.length, 3);
      for (const row of stored) assert.ok(!event.interviewerLobbyUrl.includes(row.token_encrypted));
    });

    it('adds the app owner as creator for a client-credentials token, and takes PHONE and an employer job', async () => {
      const event = await created(
        {
          mediaType: 'PHONE',
          interviewers: [],
          interviewee: {
            name: 'Dana',
            email: 'dana@example.com',
            job: { employerJobId: 'JOB-42' },
          },
        },
        'app',
      );
      assert.equal(event.mediaType, 'PHONE');
      assert.deepEqual(
        event.interviewersConnection.interviewers.map((i: { email: string }) => i.email),
        [creatorEmail],
      );
      assert.deepEqual(event.intervieweesConnection.interviewees[0].job, {
        __typename: 'EmployerJob',
        id: 'JOB-42',
      });
    });

    it('accepts 49 interviewers besides the creator, duplicates and the creator collapsing', async () => {
      const emails = Array.from({ length: 49 }, (_, i) => ({ email: `person${i}@example.com` }));
      const event = await created({
        interviewers: [...emails, { email: 'PERSON0@example.com' }, { email: creatorEmail }],
      });
      assert.equal(event.interviewersConnection.totalCount, 50);
    });

    it('accepts a duration of exactly 24 hours and a language alone', async () => {
      await created({
        startTime: '2026-12-01T00:00:00Z',
        endTime: '2026-12-02T00:00:00Z',
        languageCode: 'ja',
      });
    });

    const rules: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        'more than 49 interviewers',
        { interviewers: Array.from({ length: 50 }, (_, i) => ({ email: `p${i}@example.com` })) },
        /at most 49 interviewers/,
      ],
      [
        'an end equal to the start',
        { endTime: '2026-12-01T09:00:00-05:00' },
        /endTime must be after/,
      ],
      [
        'an end before the start',
        { endTime: '2026-12-01T08:00:00-05:00' },
        /endTime must be after/,
      ],
      [
        'a duration over 24 hours',
        { startTime: '2026-12-01T00:00:00Z', endTime: '2026-12-02T00:00:00.001Z' },
        /at most 24 hours/,
      ],
      ['a DateTime without an offset', { startTime: '2026-12-01T09:00:00' }, /offset/i],
      ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, /Mars\/Olympus_Mons/],
      ['an invalid interviewer email', { interviewers: [{ email: 'not-an-email' }] }, /email/i],
      ['an invalid interviewee email', { interviewee: { name: 'X', email: 'x@' } }, /email/i],
      [
        'a country outside the table for its language',
        { languageCode: 'de', countryCode: 'US' },
        /countryCode "US" is not supported with languageCode "de"/,
      ],
      [
        'a country for a language without countries',
        { languageCode: 'pt', countryCode: 'PT' },
        /countryCode "PT"/,
      ],
      ['an unsupported language', { languageCode: 'xx' }, /languageCode "xx" is not supported/],
      ['an uppercase language', { languageCode: 'EN' }, /lowercase/i],
      ['a lowercase country', { languageCode: 'en', countryCode: 'us' }, /uppercase/i],
      ['a country without a language', { countryCode: 'US' }, /needs input.languageCode/],
      ['an empty title', { title: '   ' }, /input.title must not be empty/],
      ['an empty atsName', { requestMetadata: { atsName: '' } }, /atsName must not be empty/],
      [
        'an empty interviewee name',
        { interviewee: { name: ' ', email: 'x@example.com' } },
        /interviewee.name must not be empty/,
      ],
      [
        'a job with both an id and a title',
        {
          interviewee: {
            name: 'X',
            email: 'x@example.com',
            job: { employerJobId: 'J', title: 'T' },
          },
        },
        /either employerJobId or title/,
      ],
    ];
    for (const [what, overrides, message] of rules) {
      it(`refuses ${what} with BAD_USER_INPUT and writes nothing`, async () => {
        await refused(CREATE, { input: createInput(overrides) }, 'BAD_USER_INPUT', message);
      });
    }

    it('refuses a token without an employer with FORBIDDEN and writes nothing', async () => {
      await refused(
        CREATE,
        { input: createInput() },
        'FORBIDDEN',
        /employer parameter/,
        'noEmployer',
      );
    });
  });

  describe('updateVirtualInterviewEvent', () => {
    it('applies each variant', async () => {
      const event = await created();
      const rescheduled = await gql(UPDATE, {
        input: {
          reschedule: {
            id: event.id,
            startTime: '2026-12-02T09:00:00+01:00',
            endTime: '2026-12-02T10:00:00+01:00',
            timezone: 'Europe/Berlin',
          },
        },
      });
      assert.equal(
        rescheduled.data.updateVirtualInterviewEvent.event.startTime,
        '2026-12-02T09:00:00+01:00',
      );
      assert.equal(rescheduled.data.updateVirtualInterviewEvent.event.timezone, 'Europe/Berlin');
      const titled = await gql(UPDATE, { input: { setTitle: { id: event.id, title: 'Renamed' } } });
      assert.equal(titled.data.updateVirtualInterviewEvent.event.title, 'Renamed');
      const zoned = await gql(UPDATE, {
        input: { setTimezone: { id: event.id, timezone: 'Asia/Tokyo' } },
      });
      assert.equal(zoned.data.updateVirtualInterviewEvent.event.timezone, 'Asia/Tokyo');
      const more = await gql(UPDATE, {
        input: {
          addInterviewers: {
            id: event.id,
            interviewers: [{ email: 'LEE@example.com' }, { email: 'new@example.com' }],
          },
        },
      });
      assert.equal(
        more.data.updateVirtualInterviewEvent.event.interviewersConnection.totalCount,
        3,
      );
      const withInterviewee = await gql(UPDATE, {
        input: {
          addInterviewee: {
            id: event.id,
            interviewee: { name: 'Robin', email: 'robin@example.com' },
          },
        },
      });
      const interviewees =
        withInterviewee.data.updateVirtualInterviewEvent.event.intervieweesConnection.interviewees;
      assert.equal(interviewees[0].status, 'RSVPED');
      assert.match(interviewees[0].intervieweeLobbyUrl, /\/lobby\/interviewee\//);
    });

    it('refuses zero variants and several variants', async () => {
      const event = await created();
      await refused(UPDATE, { input: {} }, 'BAD_USER_INPUT', /exactly one of .* \(got none\)/);
      await refused(
        UPDATE,
        {
          input: {
            setTitle: { id: event.id, title: 'A' },
            setTimezone: { id: event.id, timezone: 'UTC' },
          },
        },
        'BAD_USER_INPUT',
        /got setTitle, setTimezone/,
      );
    });

    it('refuses addInterviewee when the event has one (spec §7)', async () => {
      const event = await created({ interviewee: { name: 'First', email: 'first@example.com' } });
      await refused(
        UPDATE,
        {
          input: {
            addInterviewee: {
              id: event.id,
              interviewee: { name: 'Second', email: 'second@example.com' },
            },
          },
        },
        'BAD_USER_INPUT',
        /already has an interviewee/,
      );
    });

    it('counts existing interviewers towards the limit of 49', async () => {
      const event = await created({
        interviewers: Array.from({ length: 40 }, (_, i) => ({ email: `x${i}@example.com` })),
      });
      const ten = Array.from({ length: 10 }, (_, i) => ({ email: `y${i}@example.com` }));
      await refused(
        UPDATE,
        { input: { addInterviewers: { id: event.id, interviewers: ten } } },
        'BAD_USER_INPUT',
        /this would make 50/,
      );
      const nine = await gql(UPDATE, {
        input: {
          addInterviewers: {
            id: event.id,
            interviewers: [...ten.slice(0, 9), { email: 'x0@example.com' }],
          },
        },
      });
      assert.equal(
        nine.data.updateVirtualInterviewEvent.event.interviewersConnection.totalCount,
        50,
      );
    });

    it('applies the create rules to a reschedule and to a new title', async () => {
      const event = await created();
      await refused(
        UPDATE,
        {
          input: {
            reschedule: {
              id: event.id,
              startTime: '2026-12-01T00:00:00Z',
              endTime: '2026-12-03T00:00:00Z',
            },
          },
        },
        'BAD_USER_INPUT',
        /at most 24 hours/,
      );
      await refused(
        UPDATE,
        { input: { setTitle: { id: event.id, title: '' } } },
        'BAD_USER_INPUT',
        /title must not be empty/,
      );
    });

    it('refuses changes to cancelled, ended and archived events, and rescheduling a started one', async () => {
      for (const status of ['CANCELLED', 'ENDED', 'ARCHIVED']) {
        const event = await created();
        await database().db('interview_events').where({ id: event.id }).update({ status });
        await refused(
          UPDATE,
          { input: { setTitle: { id: event.id, title: 'Too late' } } },
          'BAD_USER_INPUT',
          new RegExp(`${status} cannot be changed`),
        );
      }
      const started = await created();
      await database()
        .db('interview_events')
        .where({ id: started.id })
        .update({ status: 'STARTED' });
      await refused(
        UPDATE,
        {
          input: {
            reschedule: {
              id: started.id,
              startTime: '2026-12-05T09:00:00Z',
              endTime: '2026-12-05T10:00:00Z',
            },
          },
        },
        'BAD_USER_INPUT',
        /only a SCHEDULED event can be rescheduled/,
      );
    });

    it('answers NOT_FOUND for an unknown id and for another employer’s event', async () => {
      const theirs = await created({}, 'theirs');
      await refused(
        UPDATE,
        { input: { setTitle: { id: randomUUID(), title: 'X' } } },
        'NOT_FOUND',
        /no virtual interview event/,
      );
      await refused(
        UPDATE,
        { input: { setTitle: { id: theirs.id, title: 'Hijacked' } } },
        'NOT_FOUND',
        /no virtual interview event/,
      );
    });
  });

  describe('cancelVirtualInterviewEvent', () => {
    it('cancels the event and its interviewee, and is idempotent', async () => {
      const event = await created({ interviewee: { name: 'Casey', email: 'casey@example.com' } });
      const first = await gql(CANCEL, { id: event.id });
      assert.equal(first.data.cancelVirtualInterviewEvent.event.status, 'CANCELLED');
      assert.equal(
        first.data.cancelVirtualInterviewEvent.event.intervieweesConnection.interviewees[0].status,
        'CANCELLED',
      );
      const again = await gql(CANCEL, { id: event.id });
      assert.deepEqual(again.data, first.data);
    });

    it('refuses to cancel an ended or archived event, and hides other employers’ events', async () => {
      for (const status of ['ENDED', 'ARCHIVED']) {
        const event = await created();
        await database().db('interview_events').where({ id: event.id }).update({ status });
        await refused(
          CANCEL,
          { id: event.id },
          'BAD_USER_INPUT',
          new RegExp(`${status} cannot be cancelled`),
        );
      }
      const theirs = await created({}, 'theirs');
      await refused(CANCEL, { id: theirs.id }, 'NOT_FOUND', /no virtual interview event/);
    });
  });
});
