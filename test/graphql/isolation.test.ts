import assert from 'node:assert/strict';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';
import { ManualClock } from '../../src/clock.js';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) { createVirtualInterviewEvent(input: $input) { event { id } } }`;
const UPDATE = `mutation($input: UpdateVirtualInterviewEventInput!) { updateVirtualInterviewEvent(input: $input) { event { id } } }`;
const CANCEL = `mutation($id: ID!) { cancelVirtualInterviewEvent(input: { id: $id }) { event { id } } }`;
const BY_IDS = `query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { id } } }`;
const FIND = `query { findVirtualInterviewEvents(input: {}, first: 100) { totalCount events { id } } }`;

describeEachDialect('employer isolation matrix', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const principals: Record<'a' | 'b', Principal> = {} as never;
  const events: Record<'a' | 'b', string[]> = { a: [], b: [] };

  async function gql(who: 'a' | 'b', query: string, variables: object = {}) {
    return (await postGraphQL(service.url, who, { query, variables })).body;
  }

  /** Everything stored about an employer's events, to prove a refused call changed nothing. */
  async function snapshot(who: 'a' | 'b') {
    const { db } = database();
    const ids = (
      await db('interview_events').where({ employer_id: principals[who].employerId }).select('id')
    ).map((row) => row.id);
    return {
      events: await db('interview_events').whereIn('id', ids).orderBy('id'),
      interviewers: await db('interviewers').whereIn('event_id', ids).orderBy('id'),
      interviewees: await db('interviewees').whereIn('event_id', ids).orderBy('id'),
      tokens: await db('lobby_tokens').whereIn('event_id', ids).orderBy('id'),
    };
  }

  before(async () => {
    for (const who of ['a', 'b'] as const) {
      const tenant = await insertTenant(database().db, `tenant-${who}`);
      principals[who] = {
        kind: 'user',
        userId: tenant.userId,
        appId: tenant.appId,
        clientId: who,
        jti: who,
        employerId: tenant.employerId,
        scopes: ['employer_access'],
      };
    }
    service = await startTestService(database(), {
      clock: new ManualClock(Date.UTC(2026, 10, 1)),
      authenticate: async (token) => principals[token as 'a' | 'b'] ?? null,
    });
    for (const who of ['a', 'b'] as const) {
      for (const title of ['First', 'Second']) {
        const body = await gql(who, CREATE, {
          input: {
            title: `${who} ${title}`,
            startTime: '2026-12-01T09:00:00Z',
            endTime: '2026-12-01T10:00:00Z',
            timezone: 'UTC',
            interviewers: [],
            requestMetadata: { atsName: 'ATS' },
          },
        });
        events[who].push(body.data.createVirtualInterviewEvent.event.id);
      }
    }
  });
  after(async () => {
    await service?.stop();
  });

  for (const [reader, owner] of [
    ['a', 'b'],
    ['b', 'a'],
  ] as const) {
    describe(`employer ${reader} against employer ${owner}'s events`, () => {
      it('cannot see them by id or in lists', async () => {
        const byIds = await gql(reader, BY_IDS, { ids: [...events[owner], ...events[reader]] });
        assert.deepEqual(byIds.data.virtualInterviewEvents.events, [
          null,
          null,
          ...events[reader].map((id) => ({ id })),
        ]);
        const found = await gql(reader, FIND);
        assert.equal(found.data.findVirtualInterviewEvents.totalCount, 2);
        assert.deepEqual(
          found.data.findVirtualInterviewEvents.events
            .map((event: { id: string }) => event.id)
            .sort(),
          [...events[reader]].sort(),
        );
      });

      const attempts: Array<[string, (id: string) => [string, object]]> = [
        [
          'reschedule',
          (id) => [
            UPDATE,
            {
              input: {
                reschedule: {
                  id,
                  startTime: '2026-12-02T09:00:00Z',
                  endTime: '2026-12-02T10:00:00Z',
                },
              },
            },
          ],
        ],
        [
          'addInterviewers',
          (id) => [
            UPDATE,
            { input: { addInterviewers: { id, interviewers: [{ email: 'spy@example.com' }] } } },
          ],
        ],
        [
          'addInterviewee',
          (id) => [
            UPDATE,
            {
              input: {
                addInterviewee: { id, interviewee: { name: 'Spy', email: 'spy@example.com' } },
              },
            },
          ],
        ],
        ['setTitle', (id) => [UPDATE, { input: { setTitle: { id, title: 'Hijacked' } } }]],
        [
          'setTimezone',
          (id) => [UPDATE, { input: { setTimezone: { id, timezone: 'Asia/Tokyo' } } }],
        ],
        ['cancel', (id) => [CANCEL, { id }]],
      ];
      for (const [what, build] of attempts) {
        it(`cannot ${what} them: NOT_FOUND, and nothing changes`, async () => {
          const before = await snapshot(owner);
          const [query, variables] = build(events[owner][0]!);
          const body = await gql(reader, query, variables);
          assert.equal(body.errors?.[0]?.extensions.code, 'NOT_FOUND');
          assert.deepEqual(await snapshot(owner), before);
        });
      }
    });
  }
});
