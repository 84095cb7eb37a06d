import assert from 'node:assert/strict';
import { employerJobIdOf } from '../../src/job-sync/posting.js';
import { testCliServices } from '../support/compose.js';
import { runConcurrently } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { CREATE, enableApis, postingInput } from '../support/job-postings.js';
import { startTestService } from '../support/service.js';

const WRITERS = 12;

describeEachDialect('Job Sync: the same posting upserted by concurrent requests', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    const { db } = database();
    const tenant = await insertTenant(db, 'concurrent');
    await enableApis(db, tenant.appId, ['job-sync']);
    await testCliServices(db).webhooks.endpoints.create(tenant.appId, {
      url: 'https://hooks.example.com/postings',
    });
    const principal = employerAppPrincipal(tenant);
    service = await startTestService(database(), {
      authenticate: async (token) => (token === 'ok' ? principal : null),
    });
  });
  after(async () => {
    await service?.stop();
  });

  it('ends as one row holding an acknowledged value, each write applied after the one before', async () => {
    // Each request writes the shared posting and one of its own, in an order of its own.
    const outcomes = await runConcurrently(WRITERS, WRITERS, async (i) => {
      const shared = postingInput('shared', `Title ${i}`);
      const own = postingInput(`own-${i}`);
      const jobPostings = i % 2 ? [shared, own] : [own, shared];
      const { status, body } = await postGraphQL(service.url, 'ok', {
        query: CREATE,
        variables: { input: { jobPostings } },
      });
      assert.equal(status, 200);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const results = body.data.jobsIngest.createSourcedJobPostings.results;
      return results[i % 2 ? 0 : 1].jobPosting.sourcedPostingId as string;
    });
    const ids = outcomes.map((outcome) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    });
    assert.equal(new Set(ids).size, 1, 'every request answered the same posting');

    const { db } = database();
    const rows = await db('job_postings').where({ job_posting_id: 'shared' });
    assert.equal(rows.length, 1);
    const titles = Array.from({ length: WRITERS }, (_, i) => `Title ${i}`);
    assert.ok(titles.includes(rows[0].title), `${rows[0].title} was written by a request`);

    // One creation and WRITERS - 1 updates, in one order: no write was lost or applied twice.
    const deliveries = await db('webhook_deliveries')
      .where({ subject: employerJobIdOf(ids[0]!) })
      .orderBy('sequence');
    assert.deepEqual(
      deliveries.map((delivery) => [delivery.sequence, delivery.type]),
      titles.map((_, i) => [i + 1, i === 0 ? 'job.posting.created.v1' : 'job.posting.updated.v1']),
    );
  });
});
