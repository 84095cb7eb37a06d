import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { ValidationError } from '../../src/errors.js';
import { composeJobSearch, type JobSearchCapability } from '../../src/job-search/compose.js';
import type { SearchArguments } from '../../src/job-search/search-request.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { changed, HOUR, posting } from './postings.js';

const NOW = Date.UTC(2026, 10, 1);

/**
 * jobSearch over the index, driven as Job Sync drives it: every posting change told to the
 * index's observer in its own transaction. On both databases.
 */
describeEachDialect('job search', (database) => {
  let clock: ManualClock;
  let jobs: JobSearchCapability;

  beforeEach(async () => {
    const { db } = database();
    await db('job_search_postings').delete();
    clock = new ManualClock(NOW);
    jobs = composeJobSearch(testSharedDependencies(db, { clock }));
  });

  const titles = async (args: SearchArguments) =>
    (await jobs.search.search(args)).results.map((result) => result.posting.title);

  async function index(...postings: ReturnType<typeof posting>[]) {
    await changed(database().db, jobs.postingObserver, ...postings);
  }

  describe('a text and radius search', () => {
    beforeEach(async () => {
      const at = (title: string, cityRegionPostal: string, hoursAgo: number, country = 'US') =>
        posting({
          title,
          location: { cityRegionPostal, country },
          datePublished: NOW - hoursAgo * HOUR,
        });
      await index(
        at('Senior Software Engineer', 'Austin, TX, 78701', 5),
        at('Software Engineer II', 'Round Rock, TX', 6),
        {
          ...at('Platform Developer', 'Austin, TX', 1),
          description: 'A software engineer who likes infrastructure.',
        },
        at('Software Engineer', 'San Antonio, TX', 2),
        at('Software Engineer', 'Houston, TX', 2),
        at('Software Engineer', 'Berlin', 3, 'DE'),
        at('Barista', 'Austin, TX', 4),
      );
    });

    it('finds only the postings within 25 miles of "Austin, TX", title matches first', async () => {
      const found = await titles({
        what: 'software engineer',
        location: { where: 'Austin, TX', radius: 25, radiusUnit: 'MILES' },
      });
      assert.deepEqual(found, [
        'Senior Software Engineer',
        'Software Engineer II',
        'Platform Developer',
      ]);
    });

    it('sorts by date when asked', async () => {
      const found = await titles({
        what: 'software engineer',
        location: { where: 'Austin, TX', radius: 25 },
        sort: 'DATE',
      });
      assert.deepEqual(found, [
        'Platform Developer',
        'Senior Software Engineer',
        'Software Engineer II',
      ]);
    });

    it('measures the radius in kilometres too', async () => {
      // Round Rock is about 27 km from Austin's centre.
      const within = (radius: number) =>
        titles({
          what: 'software engineer',
          location: { where: 'Austin, TX', radius, radiusUnit: 'KILOMETERS' },
        });
      assert.deepEqual(await within(40), [
        'Senior Software Engineer',
        'Software Engineer II',
        'Platform Developer',
      ]);
      assert.deepEqual(await within(20), ['Senior Software Engineer', 'Platform Developer']);
    });

    it('takes a ZIP code', async () => {
      const found = await titles({
        what: 'software engineer',
        location: { where: '78701', radius: 25 },
      });
      assert.deepEqual(found, [
        'Senior Software Engineer',
        'Software Engineer II',
        'Platform Developer',
      ]);
    });

    it('takes a city alone: the most populous of that name', async () => {
      assert.deepEqual(await titles({ what: 'engineer', location: { where: 'Berlin' } }), [
        'Software Engineer',
      ]);
      const [berlin] = (await jobs.search.search({ location: { where: 'Berlin', radius: 10 } }))
        .results;
      assert.equal(berlin?.posting.country, 'DE');
    });

    it('reaches San Antonio at 100 miles, and Houston where the limit allows 160', async () => {
      const wide = { what: 'software engineer', sort: 'DATE' as const };
      assert.deepEqual(await titles({ ...wide, location: { where: 'Austin, TX', radius: 100 } }), [
        'Platform Developer',
        'Software Engineer',
        'Senior Software Engineer',
        'Software Engineer II',
      ]);
      const wider = composeJobSearch(
        testSharedDependencies(database().db, {
          clock,
          env: { JOB_SEARCH_MAX_RADIUS_MILES: '200' },
        }),
      );
      const { results } = await wider.search.search({
        ...wide,
        location: { where: 'Austin, TX', radius: 160 },
      });
      assert.deepEqual(results.map((result) => result.posting.city).sort(), [
        'Austin',
        'Austin',
        'Houston',
        'Round Rock',
        'San Antonio',
      ]);
    });

    it('finds title words with quotes and hyphens near a place, and nothing for stop words alone (PostgreSQL)', async () => {
      await index(
        posting({
          title: "O'Brien's Night-Shift Nurse",
          location: { cityRegionPostal: 'Austin, TX' },
          datePublished: NOW - 7 * HOUR,
        }),
      );
      const near = { where: 'Austin, TX', radius: 25, radiusUnit: 'MILES' as const };
      for (const what of ['nurses', 'brien', 'night shift nurse', 'shift']) {
        assert.deepEqual(
          await titles({ what, location: near }),
          ["O'Brien's Night-Shift Nurse"],
          what,
        );
      }
      // PostgreSQL's english configuration drops stop words (FTS5 keeps every word): a search
      // of stop words alone finds nothing there, with a place as without one.
      if (database().dialect === 'postgres') {
        assert.deepEqual(await titles({ what: 'the', location: near }), []);
        assert.deepEqual(await titles({ what: 'the' }), []);
      }
    });

    it('ranks a title with the words inflected in the title tier near a place', async () => {
      await index(
        posting({
          title: 'Engineering Manager, Software Engineers',
          location: { cityRegionPostal: 'Austin, TX' },
          datePublished: NOW - 9 * HOUR,
        }),
        posting({
          title: 'Office Manager',
          description: 'Supports our software engineering teams.',
          location: { cityRegionPostal: 'Austin, TX' },
          datePublished: NOW - 0.5 * HOUR,
        }),
      );
      // The newest posting has the words in its description only: it comes after every title.
      assert.deepEqual(
        await titles({ what: 'Software ENGINEERS', location: { where: 'Austin, TX', radius: 25 } }),
        [
          'Senior Software Engineer',
          'Software Engineer II',
          'Engineering Manager, Software Engineers',
          'Office Manager',
          'Platform Developer',
        ],
      );
    });

    it('finds every word in company and description too, stemmed', async () => {
      assert.deepEqual(await titles({ what: 'infrastructures' }), ['Platform Developer']);
      assert.deepEqual(await titles({ what: 'acme barista' }), ['Barista']);
    });
  });

  describe('the cursor walk', () => {
    async function walk(args: SearchArguments, between?: (page: number) => Promise<void>) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 100; page++) {
        const answer = await jobs.search.search({ ...args, cursor });
        assert.ok(answer.results.length <= (args.limit ?? 10));
        seen.push(...answer.results.map((result) => result.posting.sourced_posting_id));
        cursor = answer.nextCursor;
        if (!cursor) return seen;
        await between?.(page);
      }
      throw new Error('the walk did not end');
    }

    const inAustin = (index: number, title: string) =>
      posting({
        title,
        description: index % 3 ? 'Engineer role.' : 'Other work.',
        location: { cityRegionPostal: index % 2 ? 'Austin, TX' : 'Round Rock, TX' },
        // Some share a publication second: the tiebreak orders them.
        datePublished: NOW - Math.floor(index / 3) * 1000 - 10 * HOUR,
      });

    for (const sort of ['RELEVANCE', 'DATE'] as const) {
      it(`returns each result exactly once (${sort}), also while postings are added`, async () => {
        const originals = Array.from({ length: 40 }, (_, index) =>
          inAustin(index, index % 2 ? `Engineer ${index}` : `Developer ${index}`),
        );
        await index(...originals);
        const args: SearchArguments = {
          what: 'engineer',
          location: { where: 'Austin, TX', radius: 30 },
          limit: 7,
          sort,
        };
        const expected = (await jobs.search.search({ ...args, limit: 100 })).results.map(
          (result) => result.posting.sourced_posting_id,
        );
        assert.ok(expected.length > 20, `only ${expected.length} matches`);
        assert.deepEqual(await walk(args), expected);

        const added: string[] = [];
        const seen = await walk(args, async (page) => {
          const newer = inAustin(page, `Engineer added ${page}`);
          const older = {
            ...inAustin(page, `Engineer older ${page}`),
            datePublished: NOW - 100 * HOUR,
          };
          added.push(newer.sourcedPostingId, older.sourcedPostingId);
          await index(newer, older);
        });
        assert.equal(new Set(seen).size, seen.length, 'no posting twice');
        for (const id of expected) assert.ok(seen.includes(id), 'every original posting');
        assert.ok(seen.every((id) => expected.includes(id) || added.includes(id)));
      });
    }
  });

  describe('what is searchable', () => {
    it('leaves out expired and not yet active postings, and re-indexes an upsert', async () => {
      const live = posting({ title: 'Data Engineer', datePublished: NOW - HOUR });
      const pending = posting({
        title: 'Data Engineer (pending)',
        datePublished: NOW - 2 * HOUR,
        activeFrom: NOW + HOUR,
      });
      await index(live, pending, posting({ title: 'Data Engineer (expired)', expiredAt: NOW - 1 }));
      assert.deepEqual(await titles({ what: 'data engineer' }), ['Data Engineer']);

      clock.advance(2 * HOUR);
      assert.deepEqual(await titles({ what: 'data engineer' }), [
        'Data Engineer',
        'Data Engineer (pending)',
      ]);

      await index({
        ...live,
        title: 'Data Scientist',
        location: { ...live.location, cityRegionPostal: 'Berlin', country: 'DE' },
      });
      assert.deepEqual(await titles({ what: 'data engineer' }), ['Data Engineer (pending)']);
      assert.deepEqual(
        await titles({ what: 'scientist', location: { where: 'Berlin, Germany' } }),
        ['Data Scientist'],
      );
      assert.deepEqual(await titles({ what: 'scientist', location: { where: 'Austin, TX' } }), []);

      await index({ ...pending, expiredAt: clock.now() });
      assert.deepEqual(await titles({ what: 'data engineer' }), []);
    });

    it('filters by the hours on the index', async () => {
      await index(
        posting({
          title: 'Fresh Engineer',
          activeFrom: NOW - 2 * HOUR,
          datePublished: NOW - 2 * HOUR,
        }),
        posting({
          title: 'Old Engineer',
          activeFrom: NOW - 50 * HOUR,
          datePublished: NOW - 50 * HOUR,
        }),
      );
      const filtered = (start: string) =>
        titles({ what: 'engineer', filters: { date: { field: 'dateOnIndeed', start } } });
      assert.deepEqual(await filtered('24h'), ['Fresh Engineer']);
      assert.deepEqual(await filtered('72h'), ['Fresh Engineer', 'Old Engineer']);
    });
  });

  describe('bad arguments', () => {
    const refused = async (args: SearchArguments, message: RegExp) => {
      await assert.rejects(jobs.search.search(args), (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.match(error.message, message);
        return true;
      });
    };

    it('refuses an unknown place, a bad limit, radius, cursor or filter, clearly', async () => {
      await refused(
        { location: { where: 'Atlantis, XX' } },
        /location\.where "Atlantis, XX" is not a place/,
      );
      await refused({ location: { where: '00000' } }, /is not a place/);
      await refused({ limit: 0 }, /limit must be a whole number from 1 to 100/);
      await refused({ limit: 101 }, /limit must be a whole number from 1 to 100/);
      await refused({ location: { where: 'Austin, TX', radius: -1 } }, /location\.radius must be/);
      await refused({ location: { where: 'Austin, TX', radius: 101 } }, /from 0 to 100 \(MILES\)/);
      await refused(
        { location: { where: 'Austin, TX', radius: 161, radiusUnit: 'KILOMETERS' } },
        /from 0 to 160 \(KILOMETERS\)/,
      );
      await refused({ cursor: 'not-a-cursor' }, /cursor is not a cursor of jobSearch/);
      await refused(
        { filters: { keyword: { field: 'indeedApplyScope', keys: ['DESKTOP'] } } },
        /filters\.keyword is not supported/,
      );
      await refused(
        { filters: { date: { field: 'datePublished', start: '24h' } } },
        /field must be "dateOnIndeed"/,
      );
      await refused(
        { filters: { date: { field: 'dateOnIndeed', start: 'yesterday' } } },
        /start must be a number of hours/,
      );

      await index(...Array.from({ length: 3 }, () => posting()));
      const { nextCursor } = await jobs.search.search({ what: 'engineer', limit: 1 });
      assert.ok(nextCursor);
      await refused(
        { what: 'developer', limit: 1, cursor: nextCursor },
        /cursor belongs to another search/,
      );
      await refused(
        { what: 'engineer', limit: 1, cursor: nextCursor, sort: 'DATE' },
        /cursor belongs to another search/,
      );
    });
  });
});
