import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type { EventRow } from '../../src/db/rows.js';
import { composeInterviews, type Interviews } from '../../src/interviews/compose.js';
import { composeRecordings } from '../../src/recordings/compose.js';
import { NO_WEBHOOKS } from '../../src/webhooks/outbox.js';
import { planCount } from '../../src/interviews/event-count.js';
import type { EventFilters, InstantRange } from '../../src/interviews/event-filter.js';
import { EventSearchStore } from '../../src/interviews/event-search-store.js';
import { MAX_EVENT_DURATION_MS } from '../../src/interviews/rules/schedule.js';
import { testAccounts, testSharedDependencies } from '../support/compose.js';
import { runConcurrently } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant, scheduledEventRow } from '../support/interview-fixtures.js';
import { seededRandom } from '../support/seeded-random.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Midnight UTC, so that day edges, and the instants either side of them, come up often. */
const MIDNIGHT = Date.UTC(2027, 5, 1);

type Tenant = Awaited<ReturnType<typeof insertTenant>>;

function between(random: () => number, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** An instant within a few days of MIDNIGHT, often exactly on or next to an hour or a day. */
function instant(random: () => number): number {
  const hour = MIDNIGHT + between(random, -3 * 24, 4 * 24) * HOUR;
  return hour + [0, 0, -1, 1, between(random, 0, HOUR - 1)][between(random, 0, 4)]!;
}

function range(random: () => number): InstantRange {
  const side = () => (random() < 0.3 ? null : instant(random));
  return { from: side(), until: side() };
}

/** Any duration the schedule rules allow, including the longest. */
function duration(random: () => number): number {
  return random() < 0.1 ? MAX_EVENT_DURATION_MS : between(random, 1, MAX_EVENT_DURATION_MS);
}

function eventRow(tenant: Tenant, startAt: number, endAt: number): EventRow {
  return scheduledEventRow(tenant, { title: 'Counted', start_at: startAt, end_at: endAt });
}

/** What `count(*)` says: the number the kept counts must always equal. */
async function countedOneByOne(db: Database, employerId: string, filters: EventFilters) {
  const query = db('interview_events').where('employer_id', employerId);
  for (const [column, { from, until }] of [
    ['start_at', filters.startAt],
    ['end_at', filters.endAt],
  ] as const) {
    if (from !== null) query.where(column, '>=', from);
    if (until !== null) query.where(column, '<', until);
  }
  const [row] = await query.count({ count: '*' });
  return Number(row?.count);
}

const EVERYTHING: EventFilters = {
  startAt: { from: null, until: null },
  endAt: { from: null, until: null },
};

describeEachDialect('kept event counts', (database) => {
  let mine: Tenant;
  let theirs: Tenant;
  let store: EventSearchStore;

  before(async () => {
    const { db } = database();
    mine = await insertTenant(db, 'counted');
    theirs = await insertTenant(db, 'other');
    store = new EventSearchStore(db);
  });

  async function assertCountsAgree(filters: EventFilters, employerId = mine.employerId) {
    const { db } = database();
    assert.equal(
      await store.count(employerId, planCount(filters)),
      await countedOneByOne(db, employerId, filters),
      JSON.stringify(filters),
    );
  }

  it('equal count(*) for random ranges of start and end times, while rows come, move and go', async () => {
    const { db } = database();
    const random = seededRandom(20270601);
    for (let round = 0; round < 6; round += 1) {
      const rows = Array.from({ length: 150 }, (_, index) => {
        const startAt = instant(random);
        return eventRow(index % 5 === 0 ? theirs : mine, startAt, startAt + duration(random));
      });
      await db.batchInsert('interview_events', rows, 100);
      const ids = (await db('interview_events').select('id')).map((row) => row.id as string);
      for (const id of ids.filter(() => random() < 0.2)) {
        const startAt = instant(random);
        await db('interview_events')
          .where({ id })
          .update({ start_at: startAt, end_at: startAt + duration(random) });
      }
      await db('interview_events')
        .whereIn(
          'id',
          ids.filter(() => random() < 0.1),
        )
        .delete();
      await db('interview_events')
        .where('employer_id', mine.employerId)
        .update({ status: 'ENDED' });

      await assertCountsAgree(EVERYTHING);
      await assertCountsAgree(EVERYTHING, theirs.employerId);
      for (let query = 0; query < 40; query += 1) {
        await assertCountsAgree({ startAt: range(random), endAt: range(random) });
        await assertCountsAgree({ startAt: range(random), endAt: { from: null, until: null } });
        await assertCountsAgree({ startAt: { from: null, until: null }, endAt: range(random) });
      }
    }
  });

  describe('kept by every write of the Interview API', () => {
    const clock = new ManualClock(MIDNIGHT - 2 * DAY);
    let interviews: Interviews;

    before(() => {
      const { db } = database();
      const shared = testSharedDependencies(db, { clock, env: { ARCHIVE_AFTER_DAYS: '1' } });
      interviews = composeInterviews(shared, {
        accounts: testAccounts(db, clock),
        recordings: composeRecordings(shared),
        outbox: NO_WEBHOOKS,
      });
    });

    function create(startAt: number, endAt: number) {
      return interviews.writer.create(
        mine.employerId,
        { userId: mine.userId, appId: mine.appId },
        {
          title: 'Counted',
          startTime: { epochMs: startAt, offsetMinutes: 0 },
          endTime: { epochMs: endAt, offsetMinutes: 0 },
          timezone: 'UTC',
          interviewers: [],
          requestMetadata: { atsName: 'Test ATS' },
        },
      );
    }

    async function assertKeptEqualsCounted(random: () => number) {
      await assertCountsAgree(EVERYTHING);
      for (let query = 0; query < 10; query += 1) {
        await assertCountsAgree({ startAt: range(random), endAt: range(random) });
      }
    }

    it('creates, reschedules, cancels and the sweeper, as time passes', async () => {
      const random = seededRandom(7);
      const created: string[] = [];
      const done = { rescheduled: 0, cancelled: 0, swept: 0 };
      for (let step = 0; step < 120; step += 1) {
        const action = random();
        const startAt = clock.now() + between(random, 1, 3 * DAY);
        const id = created[between(random, 0, created.length - 1)];
        if (action < 0.5 || !id) {
          created.push((await create(startAt, startAt + duration(random))).id);
        } else if (action < 0.7) {
          const reschedule = { id, startTime: { epochMs: startAt, offsetMinutes: 0 } };
          const endTime = { epochMs: startAt + duration(random), offsetMinutes: 0 };
          // Refused once the event is no longer SCHEDULED; the counts must hold either way.
          await interviews.writer
            .update(mine.employerId, { reschedule: { ...reschedule, endTime } })
            .then(() => (done.rescheduled += 1))
            .catch(() => undefined);
        } else if (action < 0.85) {
          await interviews.writer
            .cancel(mine.employerId, id)
            .then(() => (done.cancelled += 1))
            .catch(() => undefined);
        } else {
          clock.advance(between(random, 1, 2 * DAY));
          const { ended, archived } = await interviews.sweepNow();
          done.swept += ended + archived;
        }
        if (step % 20 === 19) await assertKeptEqualsCounted(random);
      }
      for (const [what, times] of Object.entries(done)) assert.ok(times > 0, `none ${what}`);
    });

    it('concurrent creates and cancels of one employer, then the next write', async () => {
      const random = seededRandom(11);
      const startAt = clock.now() + DAY;
      const outcomes = await runConcurrently(60, 12, async (index) => {
        const event = await create(startAt + index * MINUTE, startAt + index * MINUTE + HOUR);
        if (index % 3 === 0) await interviews.writer.cancel(mine.employerId, event.id);
      });
      assert.deepEqual(
        outcomes.filter((outcome) => outcome.status === 'rejected'),
        [],
      );
      await assertKeptEqualsCounted(random);
      await create(startAt, startAt + HOUR);
      await assertKeptEqualsCounted(random);
    });
  });
});
