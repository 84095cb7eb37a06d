import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EventRow } from '../../src/db/rows.js';
import { formatOffsetDateTime } from '../../src/graphql/scalars/date-time.js';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant, scheduledEventRow } from '../support/interview-fixtures.js';
import { seededRandom } from '../support/seeded-random.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';

const FIND_EVENTS = /* GraphQL */ `
  query Find($first: Int, $after: String, $input: FindVirtualInterviewEventsInput!) {
    findVirtualInterviewEvents(first: $first, after: $after, input: $input) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        cursor
        node {
          id
        }
      }
      events {
        id
        startTime
        endTime
      }
    }
  }
`;

type Field = 'START_TIME' | 'END_TIME';
type Direction = 'ASC' | 'DESC';
interface SortOption {
  field: Field;
  order: Direction;
}
interface Range {
  after?: string;
  before?: string;
}
interface FindInput {
  startTime?: Range;
  endTime?: Range;
  sort?: SortOption[];
}

const MINE = 3000;
const THEIRS = 300;
const MINUTE = 60_000;
const FIRST_SLOT = Date.UTC(2026, 3, 1, 14, 30);
/** 150 start slots and 5 durations for 3000 events: starts, ends and (start, end) pairs tie. */
const START_SLOTS = 150;
const DURATIONS_MINUTES = [15, 30, 45, 60, 90];
const OFFSETS_MINUTES = [-480, -300, 0, 60, 330, 345];

/** Every sort the API offers: none, each field either way, and both fields in either order. */
const SORTS: SortOption[][] = [[]];
for (const field of ['START_TIME', 'END_TIME'] as const) {
  for (const order of ['ASC', 'DESC'] as const) SORTS.push([{ field, order }]);
}
for (const [major, minor] of [
  ['START_TIME', 'END_TIME'],
  ['END_TIME', 'START_TIME'],
] as const) {
  for (const majorOrder of ['ASC', 'DESC'] as const) {
    for (const minorOrder of ['ASC', 'DESC'] as const) {
      SORTS.push([
        { field: major, order: majorOrder },
        { field: minor, order: minorOrder },
      ]);
    }
  }
}

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

function makeEvents(
  tenant: { employerId: string; appId: string; userId: string },
  count: number,
  random: () => number,
): EventRow[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, index) => {
    const startAt = FIRST_SLOT + Math.floor(random() * START_SLOTS) * 15 * MINUTE;
    return scheduledEventRow(tenant, {
      title: `Interview ${index}`,
      start_at: startAt,
      start_offset_minutes: pick(random, OFFSETS_MINUTES),
      end_at: startAt + pick(random, DURATIONS_MINUTES) * MINUTE,
      end_offset_minutes: pick(random, OFFSETS_MINUTES),
      created_at: now,
      updated_at: now,
    });
  });
}

const COLUMN: Record<Field, 'start_at' | 'end_at'> = { START_TIME: 'start_at', END_TIME: 'end_at' };

function inRange(value: number, range: Range | undefined): boolean {
  if (!range) return true;
  const after = range.after === undefined ? -Infinity : Date.parse(range.after);
  const before = range.before === undefined ? Infinity : Date.parse(range.before);
  return after <= value && value < before;
}

/** The ids `input` should list, computed here independently of the service. */
function expectedIds(events: readonly EventRow[], input: FindInput): string[] {
  const sort: SortOption[] = input.sort?.length
    ? input.sort
    : [{ field: 'START_TIME', order: 'ASC' }];
  return events
    .filter((e) => inRange(e.start_at, input.startTime) && inRange(e.end_at, input.endTime))
    .sort((a, b) => {
      for (const { field, order } of sort) {
        const difference = a[COLUMN[field]] - b[COLUMN[field]];
        if (difference !== 0) return order === 'DESC' ? -difference : difference;
      }
      // Lower-case UUIDs: code-unit order here equals byte order in both databases.
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    })
    .map((e) => e.id);
}

function describeSort(sort: SortOption[]): string {
  return sort.length ? sort.map((o) => `${o.field} ${o.order}`).join(', ') : 'no sort option';
}

/** An instant written in another offset than the stored one: bounds compare as instants. */
function at(epochMs: number, offsetMinutes = 330): string {
  return formatOffsetDateTime({ epochMs, offsetMinutes });
}

function flipCharacter(text: string, index: number): string {
  const replacement = text[index] === 'A' ? 'B' : 'A';
  return `${text.slice(0, index)}${replacement}${text.slice(index + 1)}`;
}

describeEachDialect('findVirtualInterviewEvents over HTTP', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let mine: EventRow[];
  let theirs: EventRow[];
  /** An event with known times and offsets, to check the DateTime output literally. */
  let landmark: EventRow;

  before(async function () {
    this.timeout(60_000);
    const { db } = database();
    const tenant = await insertTenant(db, 'mine');
    const other = await insertTenant(db, 'other');
    const random = seededRandom(20260401);
    landmark = {
      ...makeEvents(tenant, 1, random)[0]!,
      start_at: FIRST_SLOT,
      start_offset_minutes: -300,
      end_at: FIRST_SLOT + 45 * MINUTE,
      end_offset_minutes: 330,
    };
    mine = [landmark, ...makeEvents(tenant, MINE - 1, random)];
    theirs = makeEvents(other, THEIRS, random);
    await db.batchInsert('interview_events', [...mine, ...theirs], 500);

    const principal = (employerId: string, appId: string, userId: string): Principal => ({
      kind: 'app',
      appId,
      clientId: `client-${appId}`,
      jti: randomUUID(),
      ownerUserId: userId,
      employerId,
      scopes: ['employer_access'],
    });
    const principals: Record<string, Principal> = {
      mine: principal(tenant.employerId, tenant.appId, tenant.userId),
      theirs: principal(other.employerId, other.appId, other.userId),
    };
    service = await startTestService(database(), {
      authenticate: async (token) => principals[token] ?? null,
    });
  });
  after(async () => {
    await service?.stop();
  });

  async function find(
    token: 'mine' | 'theirs',
    variables: { first?: number; after?: string; input: FindInput },
  ) {
    const { status, body } = await postGraphQL(service.url, token, {
      query: FIND_EVENTS,
      variables,
    });
    assert.equal(status, 200);
    return body;
  }

  async function page(
    token: 'mine' | 'theirs',
    variables: { first?: number; after?: string; input: FindInput },
  ) {
    const { data, errors } = await find(token, variables);
    assert.equal(errors, undefined, JSON.stringify(errors));
    return data.findVirtualInterviewEvents;
  }

  async function rejected(
    token: 'mine' | 'theirs',
    variables: { first?: number; after?: string; input: FindInput },
    message: RegExp,
  ) {
    const { data, errors } = await find(token, variables);
    assert.equal(data, null);
    assert.equal(errors?.length, 1, JSON.stringify(errors));
    const [error] = errors!;
    assert.equal(error!.extensions.code, 'BAD_USER_INPUT', JSON.stringify(errors));
    assert.deepEqual(error!.path, ['findVirtualInterviewEvents']);
    assert.match(error!.message, message);
  }

  /** Follows `endCursor` to the end, checking every page; returns the ids in the order seen. */
  async function walk(token: 'mine' | 'theirs', input: FindInput, first: number) {
    const ids: string[] = [];
    const pages: any[] = [];
    let after: string | undefined;
    for (;;) {
      const current = await page(token, { first, after, input });
      const { edges, events, pageInfo } = current;
      assert.deepEqual(
        edges.map((edge: any) => edge.node.id),
        events.map((event: any) => event.id),
      );
      assert.equal(pageInfo.hasPreviousPage, pages.length > 0);
      assert.equal(pageInfo.startCursor, edges[0]?.cursor ?? null);
      assert.equal(pageInfo.endCursor, edges.at(-1)?.cursor ?? null);
      assert.equal(current.totalCount, pages[0]?.totalCount ?? current.totalCount);
      if (pageInfo.hasNextPage)
        assert.equal(events.length, first, 'a page before the last is full');
      pages.push(current);
      ids.push(...events.map((event: any) => event.id));
      if (!pageInfo.hasNextPage) break;
      assert.ok(pages.length <= MINE / first + 1, 'the walk does not end');
      after = pageInfo.endCursor;
    }
    return { ids, pages, totalCount: pages[0].totalCount as number };
  }

  async function assertWalk(token: 'mine' | 'theirs', input: FindInput, first: number) {
    const expected = expectedIds(token === 'mine' ? mine : theirs, input);
    const { ids, pages, totalCount } = await walk(token, input, first);
    assert.equal(totalCount, expected.length);
    assert.equal(new Set(ids).size, ids.length, 'an event was listed twice');
    assert.deepEqual(ids, expected);
    assert.equal(pages.length, Math.max(1, Math.ceil(expected.length / first)));
    return pages;
  }

  describe('walks every sort to the end, 100 events a page', () => {
    for (const sort of SORTS) {
      it(describeSort(sort), async () => {
        await assertWalk('mine', { sort }, 100);
      });
    }
  });

  it('walks with an odd page size and a mixed-direction sort', async () => {
    await assertWalk(
      'mine',
      {
        sort: [
          { field: 'END_TIME', order: 'DESC' },
          { field: 'START_TIME', order: 'ASC' },
        ],
      },
      37,
    );
  });

  it('walks a filtered list, and another employer sees only its own events', async () => {
    const starts = [...new Set(mine.map((e) => e.start_at))].sort((a, b) => a - b);
    await assertWalk(
      'mine',
      {
        startTime: { after: at(starts[20]!), before: at(starts[90]!) },
        sort: [
          { field: 'END_TIME', order: 'DESC' },
          { field: 'START_TIME', order: 'DESC' },
        ],
      },
      100,
    );
    await assertWalk('theirs', {}, 100);
  });

  it('walks lists filtered by end time, alone and with a start time range', async () => {
    const ends = [...new Set(mine.map((e) => e.end_at))].sort((a, b) => a - b);
    const starts = [...new Set(mine.map((e) => e.start_at))].sort((a, b) => a - b);
    const endTime = { after: at(ends[15]!), before: at(ends[70]!, -300) };
    await assertWalk('mine', { endTime }, 100);
    await assertWalk(
      'mine',
      {
        endTime,
        startTime: { after: at(starts[10]!) },
        sort: [{ field: 'END_TIME', order: 'DESC' }],
      },
      100,
    );
    await assertWalk(
      'mine',
      { startTime: { before: at(starts[50]!) }, sort: [{ field: 'END_TIME', order: 'ASC' }] },
      100,
    );
  });

  it('shows start and end times in the offsets they were stored with', async () => {
    const [first] = (await walk('mine', {}, 100)).pages;
    const byId = new Map(mine.map((event) => [event.id, event]));
    for (const event of first.events) {
      const row = byId.get(event.id)!;
      assert.equal(event.startTime, at(row.start_at, row.start_offset_minutes));
      assert.equal(event.endTime, at(row.end_at, row.end_offset_minutes));
    }
    const shown = first.events.find((event: any) => event.id === landmark.id);
    assert.deepEqual(
      { startTime: shown.startTime, endTime: shown.endTime },
      { startTime: '2026-04-01T09:30:00-05:00', endTime: '2026-04-01T20:45:00+05:30' },
    );
  });

  describe('filters', () => {
    const totalCount = async (input: FindInput) =>
      (await page('mine', { first: 1, input })).totalCount;

    it('counts start and end ranges, alone and together, ignoring pagination', async () => {
      const starts = [...new Set(mine.map((e) => e.start_at))].sort((a, b) => a - b);
      const ends = [...new Set(mine.map((e) => e.end_at))].sort((a, b) => a - b);
      const inputs: FindInput[] = [
        {},
        { startTime: { after: at(starts[10]!) } },
        { startTime: { before: at(starts[10]!) } },
        { startTime: { after: at(starts[10]!), before: at(starts[40]!) } },
        { endTime: { after: at(ends[5]!, -300), before: at(ends[60]!, 0) } },
        {
          startTime: { after: at(starts[30]!) },
          endTime: { before: at(ends[50]!) },
        },
      ];
      for (const input of inputs) {
        assert.equal(
          await totalCount(input),
          expectedIds(mine, input).length,
          JSON.stringify(input),
        );
      }
    });

    it('includes an event exactly at `after` and excludes one exactly at `before`', async () => {
      const startAt = landmark.start_at;
      const atStart = mine.filter((e) => e.start_at === startAt).length;
      assert.ok(atStart > 1, 'several events share the boundary instant');
      assert.equal(
        await totalCount({ startTime: { after: at(startAt), before: at(startAt + 1) } }),
        atStart,
      );
      assert.equal(
        await totalCount({ startTime: { after: at(startAt - 1), before: at(startAt) } }),
        0,
      );

      const endAt = landmark.end_at;
      const atEnd = mine.filter((e) => e.end_at === endAt).length;
      assert.equal(
        await totalCount({ endTime: { after: at(endAt), before: at(endAt + 1) } }),
        atEnd,
      );
      assert.equal(
        await totalCount({
          endTime: { after: at(endAt + 1) },
          startTime: { before: at(startAt + 1) },
        }),
        mine.filter((e) => e.end_at > endAt && e.start_at <= startAt).length,
      );
    });

    it('matches nothing when `after` is not before `before`', async () => {
      const empty = await page('mine', {
        input: { startTime: { after: at(landmark.start_at), before: at(landmark.start_at) } },
      });
      assert.equal(empty.totalCount, 0);
      assert.deepEqual(empty.edges, []);
      assert.deepEqual(empty.pageInfo, {
        hasNextPage: false,
        hasPreviousPage: false,
        startCursor: null,
        endCursor: null,
      });
    });
  });

  describe('first', () => {
    it('defaults to 20', async () => {
      const current = await page('mine', { input: {} });
      assert.equal(current.events.length, 20);
      assert.deepEqual(
        current.events.map((e: any) => e.id),
        expectedIds(mine, {}).slice(0, 20),
      );
    });

    it('0 gives an empty page that still knows the total and what follows', async () => {
      const empty = await page('mine', { first: 0, input: {} });
      assert.deepEqual(empty.edges, []);
      assert.deepEqual(empty.events, []);
      assert.equal(empty.totalCount, MINE);
      assert.deepEqual(empty.pageInfo, {
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: null,
        endCursor: null,
      });
      const { endCursor } = (await page('mine', { first: 3, input: {} })).pageInfo;
      const afterThree = await page('mine', { first: 0, after: endCursor, input: {} });
      assert.equal(afterThree.pageInfo.hasPreviousPage, true);
      assert.equal(afterThree.pageInfo.hasNextPage, true);
    });

    it('refuses more than 100 and negative sizes', async () => {
      await rejected('mine', { first: 101, input: {} }, /first/);
      await rejected('mine', { first: -1, input: {} }, /first/);
    });
  });

  describe('cursors', () => {
    const byStart: FindInput = { sort: [{ field: 'START_TIME', order: 'ASC' }] };
    const notOurs = /after is not a cursor from this query/;
    let cursor: string;

    before(async () => {
      cursor = (await page('mine', { first: 5, input: byStart })).pageInfo.endCursor;
    });

    it('continues right after the event the cursor names', async () => {
      const next = await page('mine', { first: 5, after: cursor, input: byStart });
      assert.deepEqual(
        next.events.map((e: any) => e.id),
        expectedIds(mine, byStart).slice(5, 10),
      );
      // No sort option means START_TIME ascending: the very same query.
      const same = await page('mine', { first: 5, after: cursor, input: {} });
      assert.deepEqual(same.events, next.events);
    });

    it('refuses forged and malformed cursors', async () => {
      const payload = Buffer.from(JSON.stringify([landmark.start_at, landmark.id])).toString(
        'base64url',
      );
      for (const forged of [
        `${payload}.${'A'.repeat(22)}`,
        payload,
        `${cursor}.${cursor}`,
        'not a cursor',
        '',
        'x'.repeat(5000),
      ]) {
        await rejected('mine', { after: forged, input: byStart }, notOurs);
      }
    });

    it('refuses a cursor with any character changed', async () => {
      const dot = cursor.indexOf('.');
      for (const index of [0, Math.floor(dot / 2), dot - 1, dot, dot + 1, cursor.length - 1]) {
        await rejected('mine', { after: flipCharacter(cursor, index), input: byStart }, notOurs);
      }
    });

    it("refuses another employer's cursor", async () => {
      const theirCursor = (await page('theirs', { first: 5, input: byStart })).pageInfo.endCursor;
      await rejected('mine', { after: theirCursor, input: byStart }, notOurs);
      await rejected('theirs', { after: cursor, input: byStart }, notOurs);
    });

    it('refuses a cursor issued for another sort or other filters', async () => {
      for (const input of [
        { sort: [{ field: 'START_TIME', order: 'DESC' }] },
        { sort: [{ field: 'END_TIME', order: 'ASC' }] },
        { sort: [...byStart.sort!, { field: 'END_TIME', order: 'ASC' }] },
        { ...byStart, startTime: { after: at(FIRST_SLOT) } },
        { ...byStart, endTime: { before: at(FIRST_SLOT + 3 * 24 * 60 * MINUTE) } },
      ] satisfies FindInput[]) {
        await rejected('mine', { after: cursor, input }, notOurs);
      }
    });

    it('accepts a cursor back when the filter bounds are written in another offset', async () => {
      const filtered = { ...byStart, startTime: { after: at(FIRST_SLOT + 60 * MINUTE, 0) } };
      const { endCursor } = (await page('mine', { first: 5, input: filtered })).pageInfo;
      const restated = { ...byStart, startTime: { after: at(FIRST_SLOT + 60 * MINUTE, -420) } };
      const next = await page('mine', { first: 5, after: endCursor, input: restated });
      assert.deepEqual(
        next.events.map((e: any) => e.id),
        expectedIds(mine, filtered).slice(5, 10),
      );
    });
  });

  it('refuses a sort that names a field twice', async () => {
    await rejected(
      'mine',
      {
        input: {
          sort: [
            { field: 'START_TIME', order: 'ASC' },
            { field: 'START_TIME', order: 'DESC' },
          ],
        },
      },
      /input\.sort\[1\].*START_TIME/,
    );
  });

  it('pages with a constant number of queries and never with OFFSET', async () => {
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    const mixed: FindInput = {
      sort: [
        { field: 'START_TIME', order: 'DESC' },
        { field: 'END_TIME', order: 'ASC' },
      ],
    };
    const queriesFor = async (variables: { first: number; after?: string; input: FindInput }) => {
      statements.length = 0;
      const current = await page('mine', variables);
      return { current, events: statements.filter((sql) => /interview_event/.test(sql)) };
    };

    service.db.on('query', record);
    try {
      const small = await queriesFor({ first: 5, input: mixed });
      const large = await queriesFor({ first: 100, input: mixed });
      const later = await queriesFor({
        first: 100,
        after: large.current.pageInfo.endCursor,
        input: mixed,
      });
      const deep = await queriesFor({
        first: 100,
        after: later.current.pageInfo.endCursor,
        input: mixed,
      });
      for (const { events } of [small, large, later, deep]) {
        assert.equal(events.length, 2, `one count and one page query:\n${events.join('\n')}`);
        for (const sql of events) assert.doesNotMatch(sql, /\boffset\b/i);
      }
      assert.match(deep.events.join('\n'), /limit/i);
    } finally {
      service.db.off('query', record);
    }
  });
});
