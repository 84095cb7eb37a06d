import assert from 'node:assert/strict';
import { composeJobSearch } from '../../src/job-search/compose.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { inProcessCli } from './in-process-cli.js';

describeEachDialect('admin CLI: jobs seed', (database) => {
  const { run, json } = inProcessCli(database);

  before(async () => {
    await database().db('job_search_postings').delete();
  });

  it('loads realistic postings in batches, which search then finds near their places', async () => {
    const seeded = await json('jobs', 'seed', '--count', '120', '--batch', '50', '--seed', '7');
    assert.equal(seeded.seeded, 120);
    assert.equal(seeded.seed, 7);
    assert.equal(seeded.indexed, 120);
    const again = await json('jobs', 'seed', '--count', '120', '--seed', '7');
    assert.equal(again.indexed, 120, 'the same seed makes the same postings, which replace theirs');
    assert.equal((await json('jobs', 'seed', '--count', '30')).indexed, 150);

    const rows = await database().db('job_search_postings').select('title', 'company_name', 'city');
    assert.ok(
      rows.every((row) => row.title && row.company_name && row.city),
      'placed postings',
    );
    const { search } = composeJobSearch(testSharedDependencies(database().db));
    const anywhere = await search.search({ limit: 100 });
    assert.equal(anywhere.results.length, 100);
    const [first] = anywhere.results;
    const near = await search.search({
      location: { where: `${first!.posting.city}, ${first!.posting.country}`, radius: 5 },
      limit: 100,
    });
    assert.ok(
      near.results.some(
        (result) => result.posting.sourced_posting_id === first!.posting.sourced_posting_id,
      ),
    );
  });

  it('refuses a count out of range', async () => {
    const refused = await run('jobs', 'seed', '--count', '0');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /--count.*must be a whole number from 1 to 10000000/);
  });
});
