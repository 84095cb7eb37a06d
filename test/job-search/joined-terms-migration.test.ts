import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrationSource } from '../../src/db/migrations/index.js';
import { composeJobSearch } from '../../src/job-search/compose.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { changed, HOUR, posting } from './postings.js';

const NOW = Date.UTC(2026, 10, 1);
const MIGRATIONS = { migrationSource, tableName: 'knex_migrations' };

/**
 * Migration 0036 gives the postings already on the index their joined title terms and makes
 * the text index again over them: a search after it finds what it found before, title matches
 * first; and it reverts to the index it replaced.
 */
describeEachDialect('job search: the joined title terms migration', (database) => {
  it('backfills the postings indexed before it, and reverts', async () => {
    const { db } = database();
    await db('job_search_postings').delete();
    const jobs = composeJobSearch(testSharedDependencies(db, { clock: new ManualClock(NOW) }));
    const at = (title: string, cityRegionPostal: string, hoursAgo: number, description?: string) =>
      posting({
        title,
        location: { cityRegionPostal },
        datePublished: NOW - hoursAgo * HOUR,
        ...(description && { description }),
      });
    await changed(
      db,
      jobs.postingObserver,
      at('Senior Software Engineers', 'Austin, TX', 5),
      at('Platform Developer', 'Austin, TX', 1, 'A software engineer.'),
      at('Software Engineer', 'Houston, TX', 2),
      at('Software Engineer II', 'Round Rock, TX', 6),
    );
    const search = async () =>
      (
        await jobs.search.search({
          what: 'software engineer',
          location: { where: 'Austin, TX', radius: 25 },
        })
      ).results.map((result) => result.posting.title);
    const expected = ['Senior Software Engineers', 'Software Engineer II', 'Platform Developer'];
    assert.deepEqual(await search(), expected);

    const [, reverted] = (await db.migrate.down(MIGRATIONS)) as [number, string[]];
    assert.deepEqual(reverted, ['0036_job_search_joined_title_terms']);
    assert.equal(await db.schema.hasColumn('job_search_postings', 'title_cell_terms'), false);
    assert.equal(await jobs.indexedCount(), 4);
    // Enough more postings, outside the radius, that the backfill takes three batches of 500.
    // PostgreSQL's generated document is its own to write.
    const { text_document: _generated, ...houston } = await db('job_search_postings')
      .where({ city: 'Houston' })
      .first();
    const copies = Array.from({ length: 1_200 }, (_unused, index) => ({
      ...houston,
      sort_key: Number(houston.sort_key) + 1 + index,
      sourced_posting_id: `copy-${index}`,
      employer_job_id: `copy-${index}`,
      title: 'Registered Nurse',
    }));
    for (let start = 0; start < copies.length; start += 100) {
      await db('job_search_postings').insert(copies.slice(start, start + 100));
    }

    assert.deepEqual(await migrateToLatest(db), ['0036_job_search_joined_title_terms']);
    const nurses = await db('job_search_postings')
      .where({ title: 'Registered Nurse' })
      .pluck('title_cell_terms');
    assert.equal(nurses.length, 1_200);
    assert.deepEqual(
      new Set(nurses.map((line: string) => line.replace(/x\d+/g, ''))),
      new Set(['regist nurs']),
    );
    const terms = await db('job_search_postings')
      .whereNot({ title: 'Registered Nurse' })
      .orderBy('title')
      .pluck('title_cell_terms');
    assert.deepEqual(
      terms.map((line: string) => line.replace(/x\d+/g, '')),
      ['platform develop', 'senior softwar engin', 'softwar engin', 'softwar engin ii'],
    );
    assert.deepEqual(await search(), expected);
  });
});
