import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ManualClock } from '../../src/clock.js';
import { composeJobSearch, type JobSearchCapability } from '../../src/job-search/compose.js';
import { IndexUpkeep } from '../../src/job-search/index-upkeep.js';
import { SearchStore } from '../../src/job-search/search-store.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { changed, HOUR, posting } from './postings.js';

const NOW = Date.UTC(2026, 10, 1);

/**
 * The search index's upkeep (src/job-search/index-upkeep.ts), in small steps of their own: on
 * SQLite, merging the FTS5 segments that each write transaction adds; on PostgreSQL, moving the
 * GIN pending list into the index. Every search answers the same before, during and after it.
 */
describeEachDialect('search index upkeep', (database) => {
  let jobs: JobSearchCapability;
  let store: SearchStore;

  beforeEach(async () => {
    const { db } = database();
    await db('job_search_postings').delete();
    jobs = composeJobSearch(testSharedDependencies(db, { clock: new ManualClock(NOW) }));
    store = new SearchStore(db);
  });

  /** `count` postings in Austin, each written in a transaction of its own, newest last. */
  async function indexOneByOne(count: number, from = 0) {
    for (let index = from; index < from + count; index++) {
      await changed(
        database().db,
        jobs.postingObserver,
        posting({
          title: index % 2 ? 'Software Engineer' : 'Registered Nurse',
          location: { cityRegionPostal: 'Austin, TX', country: 'US' },
          datePublished: NOW - HOUR + index * 1000,
        }),
      );
    }
  }

  const search = async (what: string) =>
    (
      await jobs.search.search({
        what,
        location: { where: 'Austin, TX', radius: 25 },
        limit: 100,
        sort: 'DATE',
      })
    ).results.map((result) => result.posting.sourced_posting_id);

  it('merges what many small writes left, in steps, until a step finds nothing to do', async () => {
    await indexOneByOne(40);
    const before = { engineers: await search('software engineer'), nurses: await search('nurse') };
    assert.equal(before.engineers.length, 20);
    assert.equal(before.nurses.length, 20);

    const upkeep = new IndexUpkeep(store);
    // SQLite: forty segments to merge; PostgreSQL: forty postings in the GIN pending list.
    assert.ok((await upkeep.runPass()) > 0, 'forty small writes left nothing to do');
    assert.equal(await store.upkeepStep(64), false, 'a pass ends when there is nothing to do');
    assert.equal(await upkeep.runPass(), 0);
    assert.deepEqual(
      { engineers: await search('software engineer'), nurses: await search('nurse') },
      before,
    );
  });

  it('compacts the whole index after a bulk load, and searches answer the same', async () => {
    await indexOneByOne(30);
    const before = await search('software engineer');
    const upkeep = new IndexUpkeep(store);
    await upkeep.compact();
    assert.equal(await store.upkeepStep(64, 'compact'), false, 'compacted: nothing left to do');
    assert.equal(await upkeep.runPass(), 0, 'one segment: nothing to merge either');
    assert.deepEqual(await search('software engineer'), before);
    await indexOneByOne(4, 30);
    assert.equal((await search('software engineer')).length, 17);
  });

  it('runs beside writes and loses none of them', async () => {
    await indexOneByOne(20);
    const upkeep = new IndexUpkeep(store);
    let writing = true;
    const merging = (async () => {
      let steps = 0;
      while (writing) {
        steps += await upkeep.runPass();
        // A pass with nothing to do returns without waiting on the database: let the writes run.
        await nextTurn();
      }
      return steps + (await upkeep.runPass());
    })();
    try {
      await indexOneByOne(40, 20);
    } finally {
      writing = false;
    }
    await merging;
    assert.equal((await search('software engineer')).length, 30);
    assert.equal((await search('nurse')).length, 30);
    assert.equal(await store.upkeepStep(64), false);
  });

  it('keeps the index a range of its key for FTS5 after an ANALYZE of the empty index', async function () {
    if (database().dialect !== 'sqlite') this.skip();
    const { db } = database();
    // What FTS5 runs to delete a merged segment's pages, as this connection would plan it.
    const segmentDeletePlan = async () =>
      (
        (await db.raw(
          'EXPLAIN QUERY PLAN SELECT id FROM job_search_postings_text_data WHERE id >= ? AND id <= ?',
          [0, 1],
        )) as Array<{ detail: string }>
      )
        .map((step) => step.detail)
        .join('; ');
    const rangeOfKey = /^SEARCH .*\(rowid>\? AND rowid<\?\)$/;
    try {
      await db.raw('ANALYZE');
      assert.match(await segmentDeletePlan(), /^SCAN /, 'an empty index analyzed: two rows');
      // A mark an ANALYZE of the table would overwrite (with "2").
      await db.raw(
        "UPDATE sqlite_stat1 SET stat = '1' WHERE tbl = 'job_search_postings_text_data'",
      );
      await store.upkeepStep(64);
      assert.match(await segmentDeletePlan(), /^SCAN /, 'a scan of two rows is left alone');
      assert.deepEqual(
        await db.raw("SELECT stat FROM sqlite_stat1 WHERE tbl = 'job_search_postings_text_data'"),
        [{ stat: '1' }],
        'and the table not analyzed',
      );
      await indexOneByOne(40);
      assert.match(await segmentDeletePlan(), /^SCAN /, 'the statistics stay as they were');

      await store.upkeepStep(64);
      assert.match(await segmentDeletePlan(), rangeOfKey);
      assert.equal((await search('software engineer')).length, 20);
    } finally {
      await db.raw('DROP TABLE IF EXISTS sqlite_stat1');
      await db.raw('DROP TABLE IF EXISTS sqlite_stat4');
    }
  });

  it('stops a running upkeep when the server stops', async () => {
    const running = jobs.startUpkeep();
    await indexOneByOne(5);
    await running.stop();
    assert.equal((await search('software engineer')).length, 2);
  });
});
