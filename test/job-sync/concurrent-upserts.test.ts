import assert from 'node:assert/strict';
import { employerJobIdOf } from '../../src/job-sync/posting.js';
import { testCliServices } from '../support/compose.js';
import { runConcurrently, volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { CREATE, EXPIRE, enableApis, postingInput } from '../support/job-postings.js';
import { seededRandom } from '../support/seeded-random.js';
import { startTestService } from '../support/service.js';

const WRITERS = 12;
/** Rounds of racing batches and expiries; each round's batches create keys new to all of them. */
const ROUNDS = volume('JOB_SYNC_RACE_ROUNDS', 12);
const STORED_KEYS = 6;

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
    // A transaction the engine undoes (a deadlock) would be retried unseen; here it answers 503.
    const noRetries = { ...database(), config: { ...database().config, retries: 0 } };
    service = await startTestService(noRetries, {
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

  it('holds every key a write takes, stored or new: racing batches and expiries never deadlock', async () => {
    const random = seededRandom(7);
    const stored = Array.from({ length: STORED_KEYS }, (_, i) => `stored-${i}`);
    const created = await create(stored.map((key) => postingInput(key)));
    const ids = new Map(stored.map((key, i) => [key, created[i]!.jobPosting.sourcedPostingId]));
    const pick = (keys: string[], count: number) =>
      keys
        .map((key) => ({ key, order: random() }))
        .sort((a, b) => a.order - b.order)
        .slice(0, count)
        .map(({ key }) => key);

    const sent = new Set<string>();
    for (let round = 0; round < ROUNDS; round += 1) {
      // New keys that several batches of the round insert at once, beside stored keys that
      // other batches update and expiries expire, each request in an order of its own.
      const fresh = Array.from({ length: 4 }, (_, i) => `round-${round}-${i}`);
      const writes = [
        ...Array.from({ length: 6 }, () => {
          const keys = [...pick(fresh, 2), ...pick(stored, 3)];
          for (const key of keys.slice(0, 2)) sent.add(key);
          return () =>
            create(pick(keys, keys.length).map((key) => postingInput(key, `Round ${round}`)));
        }),
        ...Array.from({ length: 3 }, () => {
          const jobs = pick(stored, 2).map((key) => ({ sourcedPostingId: ids.get(key)! }));
          return () => send(EXPIRE, { input: { jobs } });
        }),
      ];
      const outcomes = await runConcurrently(writes.length, writes.length, (i) => writes[i]!());
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') throw outcome.reason;
      }
    }
    const rows = await database().db('job_postings').where('job_posting_id', 'like', 'round-%');
    assert.deepEqual(
      rows.map((row) => row.job_posting_id).sort(),
      [...sent].sort(),
      'every new key an acknowledged batch held is stored, once',
    );
  });

  async function send(query: string, variables: Record<string, unknown>) {
    const { status, body } = await postGraphQL(service.url, 'ok', { query, variables });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.jobsIngest;
  }

  async function create(jobPostings: unknown[]) {
    const answer = await send(CREATE, { input: { jobPostings } });
    return answer.createSourcedJobPostings.results;
  }
});
