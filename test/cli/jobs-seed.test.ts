import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { composeJobSearch } from '../../src/job-search/compose.js';
import { PostingReader } from '../../src/job-sync/posting-reader.js';
import { PostingStore } from '../../src/job-sync/posting-store.js';
import { SEED_APP_NAME, SEED_EMPLOYER_NAME } from '../../src/cli/seed-owner.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { inProcessCli } from './in-process-cli.js';

describeEachDialect('admin CLI: jobs seed', (database) => {
  const { run, json, appOfNewOwner } = inProcessCli(database);

  before(async () => {
    await database().db('job_search_postings').delete();
  });

  it('creates real postings through Job Sync for the seed app and employer, which search finds once ACTIVE', async () => {
    const seeded = await json('jobs', 'seed', '--count', '230', '--batch', '120', '--seed', '7');
    assert.equal(seeded.seeded, 230);
    assert.equal(seeded.seed, 7);
    assert.equal(seeded.app.name, SEED_APP_NAME);
    assert.equal(seeded.employer.name, SEED_EMPLOYER_NAME);
    assert.equal(seeded.searchable_after_seconds, 60);
    const { db } = database();
    const postings = await db('job_postings').where({ app_id: seeded.app.id });
    assert.equal(postings.length, 230);
    assert.ok(postings.every((row) => row.employer_id === seeded.employer.id));
    assert.ok(postings.every((row) => row.job_posting_id.startsWith('SEED-7-')));
    assert.equal(seeded.indexed, 230, 'the observer indexed each in its transaction');
    // Job Sync announced each one (the outbox wrote nothing: the app has no endpoint).
    assert.equal((await db('webhook_deliveries').where({ app_id: seeded.app.id })).length, 0);

    const again = await json('jobs', 'seed', '--count', '230', '--seed', '7');
    assert.deepEqual([again.app.id, again.employer.id], [seeded.app.id, seeded.employer.id]);
    assert.equal(again.indexed, 230, 'the same seed upserts the same postings by their key');
    assert.equal((await db('job_postings').where({ app_id: seeded.app.id })).length, 230);

    // PENDING for JOB_SYNC_INDEXING_DELAY_MS, then ACTIVE and searched.
    const clock = new ManualClock(Date.now());
    const { search } = composeJobSearch(testSharedDependencies(db, { clock }));
    assert.equal((await search.search({ limit: 100 })).results.length, 0);
    clock.advance(61_000);
    const anywhere = await search.search({ limit: 100 });
    assert.equal(anywhere.results.length, 100);
    const ids = new Set(postings.map((row) => row.sourced_posting_id));
    assert.ok(anywhere.results.every((result) => ids.has(result.posting.sourced_posting_id)));
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
    // Read back as node(id) and the console's Job postings tab read them (Job Sync's reader).
    const reader = new PostingReader(new PostingStore(db));
    const byId = (
      await reader.ofEmployer(seeded.employer.id, [first!.posting.sourced_posting_id])
    ).get(first!.posting.sourced_posting_id);
    assert.equal(byId?.appId, seeded.app.id);
    assert.equal(byId?.content.title, first!.posting.title);
    const tab = await reader.pageOfApp(seeded.app.id, 50, null);
    assert.equal(tab.postings.length, 50);
    assert.equal(tab.total, 230);
  });

  it('posts for the app (client id or id) and employer named', async () => {
    const { clientId, appId } = await appOfNewOwner('SeedTarget');
    const employer = await json('employer', 'create', '--name', 'Seeded Co');
    const employerId: string = employer.employer.id;
    const byClientId = await json(
      'jobs',
      'seed',
      '--count',
      '5',
      '--app',
      clientId,
      '--employer',
      employerId,
    );
    assert.deepEqual([byClientId.app.id, byClientId.employer.id], [appId, employerId]);
    const byId = await json('jobs', 'seed', '--count', '3', '--app', appId);
    assert.equal(byId.app.id, appId);
    assert.equal(byId.employer.name, SEED_EMPLOYER_NAME, "the app owner's seed employer");
    const rows = await database().db('job_postings').where({ app_id: appId });
    assert.deepEqual(
      rows.map((row) => row.employer_id).sort(),
      [...Array(5).fill(employerId), ...Array(3).fill(byId.employer.id)].sort(),
    );
  });

  it('refuses a count out of range, an unknown app and an unknown employer', async () => {
    const refused = await run('jobs', 'seed', '--count', '0');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /--count.*must be a whole number from 1 to 10000000/);
    const noApp = await run('jobs', 'seed', '--count', '1', '--app', 'nope');
    assert.notEqual(noApp.code, 0);
    assert.match(noApp.stderr, /no app with client id or id nope/);
    const noEmployer = await run('jobs', 'seed', '--count', '1', '--employer', 'nope');
    assert.notEqual(noEmployer.code, 0);
    assert.match(noEmployer.stderr, /no employer with id nope/);
  });
});
