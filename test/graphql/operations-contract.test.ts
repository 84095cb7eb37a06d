import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { GraphQLField } from 'graphql';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import {
  assertConformsToSchema,
  reachableFields,
  selectEverything,
  wireCheckingSchema,
} from '../support/schema-conformance.js';
import { TEST_KEY_ENCRYPTION_SECRET, startTestService } from '../support/service.js';
import { randomToken, sha256Hex } from '../../src/security/random.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { postGraphQL } from '../support/graphql-client.js';
import { ManualClock } from '../../src/clock.js';

/** The streaming token of each event's recording, by event id. */
const recordingTokens = new Map<string, string>();

const schema = wireCheckingSchema();
const rootField = (root: 'Query' | 'Mutation', name: string): GraphQLField<unknown, unknown> => {
  const type = root === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[name];
  if (!field) throw new Error(`${root}.${name} is not in the schema (schema/*.graphql)`);
  return field;
};

/** Each operation with every field reachable from it selected. */
function operation(
  root: 'Query' | 'Mutation',
  name: string,
  signature: string,
  args: string,
): string {
  const { selection, covered } = selectEverything(rootField(root, name));
  assert.deepEqual(
    [...reachableFields(rootField(root, name))].filter((f) => !covered.has(f)),
    [],
    `${name} selects every field`,
  );
  return `${root === 'Query' ? 'query' : 'mutation'}${signature} { ${name}${args} ${selection} }`;
}

const OPERATIONS = {
  create: operation(
    'Mutation',
    'createVirtualInterviewEvent',
    '($input: CreateVirtualInterviewEventInput!)',
    '(input: $input)',
  ),
  update: operation(
    'Mutation',
    'updateVirtualInterviewEvent',
    '($input: UpdateVirtualInterviewEventInput!)',
    '(input: $input)',
  ),
  cancel: operation(
    'Mutation',
    'cancelVirtualInterviewEvent',
    '($input: CancelVirtualInterviewEventInput!)',
    '(input: $input)',
  ),
  byIds: operation(
    'Query',
    'virtualInterviewEvents',
    '($input: VirtualInterviewEventsInput!)',
    '(input: $input)',
  ),
  find: operation(
    'Query',
    'findVirtualInterviewEvents',
    '($input: FindVirtualInterviewEventsInput!, $first: Int, $after: String)',
    '(input: $input, first: $first, after: $after)',
  ),
};

describeEachDialect(
  'the five operations, every field selected, responses checked against the schema',
  (database) => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    let principal: Principal;
    const eventIds: string[] = [];

    before(async () => {
      const tenant = await insertTenant(database().db, 'contract');
      principal = {
        kind: 'user',
        userId: tenant.userId,
        appId: tenant.appId,
        clientId: 'c',
        jti: 'j',
        employerId: tenant.employerId,
        scopes: ['employer_access'],
      };
      service = await startTestService(database(), {
        clock: new ManualClock(Date.UTC(2026, 10, 1)),
        authenticate: async (token) => (token === 'ok' ? principal : null),
      });
    });
    after(async () => {
      await service?.stop();
    });

    async function run(query: string, variables: object) {
      const { body } = await postGraphQL(service.url, 'ok', { query, variables });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      await assertConformsToSchema(query, variables, body.data);
      return body.data;
    }

    /** An interview record with an outcome, as the interviewer lobby would leave it. */
    async function recordInterview(eventId: string) {
      const { db } = database();
      const interviewee = await db('interviewees').where({ event_id: eventId }).first();
      const interviewer = await db('interviewers')
        .where({ event_id: eventId })
        .orderBy('position')
        .first();
      const now = Date.now();
      const recordId = randomUUID();
      await db('interview_records').insert({
        id: recordId,
        event_id: eventId,
        interviewee_id: interviewee.id,
        start_at: now,
        end_at: now + 60_000,
        recording_url: null,
        created_at: now,
      });
      const token = randomToken();
      recordingTokens.set(eventId, token);
      await db('recordings').insert({
        id: randomUUID(),
        event_id: eventId,
        record_id: recordId,
        started_by: interviewer.id,
        token_hash: sha256Hex(token),
        token_sealed: new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'recording-tokens').seal(token),
        bytes: 1000,
        chunks: 1,
        status: 'stopped',
        started_at: now,
        stopped_at: now + 60_000,
        deleted_at: null,
      });
      await db('interview_outcomes').insert({
        id: randomUUID(),
        record_id: recordId,
        interviewer_id: interviewer.id,
        decision: 'MAYBE',
        note_text: 'Good, needs a second round',
        created_at: now,
        updated_at: now,
      });
    }

    it('createVirtualInterviewEvent', async () => {
      for (const job of [
        { employerJobId: 'JOB-7' },
        { title: 'Data engineer', location: 'Berlin' },
      ]) {
        const input = {
          title: 'Contract check',
          startTime: '2026-12-10T09:00:00+01:00',
          endTime: '2026-12-10T10:00:00+01:00',
          timezone: 'Europe/Berlin',
          interviewers: [{ email: 'lee@example.com' }],
          interviewee: { name: 'Casey', email: 'casey@example.com', job },
          requestMetadata: { atsName: 'Contract ATS' },
          languageCode: 'de',
          countryCode: 'DE',
          mediaType: 'VIDEO',
        };
        const data = await run(OPERATIONS.create, { input });
        eventIds.push(data.createVirtualInterviewEvent.event.id);
      }
      for (const id of eventIds) await recordInterview(id);
    });

    it('updateVirtualInterviewEvent', async () => {
      const data = await run(OPERATIONS.update, {
        input: { setTitle: { id: eventIds[0], title: 'Renamed' } },
      });
      assert.equal(data.updateVirtualInterviewEvent.event.title, 'Renamed');
    });

    it('virtualInterviewEvents, with records, outcomes and both kinds of job', async () => {
      const data = await run(OPERATIONS.byIds, { input: { ids: [...eventIds, randomUUID()] } });
      const events = data.virtualInterviewEvents.events;
      assert.equal(events.at(-1), null);
      const jobs = events
        .slice(0, 2)
        .map((event: any) => event.intervieweesConnection.interviewees[0].job.__typename);
      assert.deepEqual(jobs.sort(), ['EmployerJob', 'VirtualInterviewJobInfo']);
      const record =
        events[0].intervieweesConnection.interviewees[0].interviewRecordsConnection.records[0];
      assert.equal(
        record.recordingUrl,
        `${service.config.publicUrl}/recordings/${recordingTokens.get(eventIds[0]!)}`,
      );
      assert.deepEqual(record.interviewOutcomesConnection.outcomes[0].decision, {
        value: 'MAYBE',
        noteText: 'Good, needs a second round',
      });
    });

    it('findVirtualInterviewEvents', async () => {
      // Every field, through both edges and lists, may cost about 28,700 objects per event (10
      // records of 50 outcomes each): a page of 6 stays under the default cost limit.
      const data = await run(OPERATIONS.find, { input: {}, first: 6 });
      assert.equal(data.findVirtualInterviewEvents.totalCount, eventIds.length);
    });

    it('cancelVirtualInterviewEvent', async () => {
      const data = await run(OPERATIONS.cancel, { input: { id: eventIds[1] } });
      assert.equal(data.cancelVirtualInterviewEvent.event.status, 'CANCELLED');
    });
  },
);
