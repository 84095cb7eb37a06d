import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { employerJobIdOf } from '../../src/job-sync/posting.js';
import { testCliServices } from '../support/compose.js';
import { volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { DispositionLedger, overlappingDispositions } from '../support/disposition-ledger.js';
import { EmployerPatchLedger, employerPatch } from '../support/employer-patch-ledger.js';
import { halfWrittenRows } from '../support/integrity.js';
import { enableApis, postingInput } from '../support/job-postings.js';
import { JobsApisClient, type Answer } from '../support/jobs-apis-client.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { PostingLedger, type LedgerCheck } from '../support/posting-ledger.js';
import { seededRandom } from '../support/seeded-random.js';
import {
  RAISED_RATE_LIMITS,
  fixedAddress,
  startServiceProcess,
  workersReplaced,
  type ServiceProcess,
} from '../support/service-process.js';
import { timed } from '../support/timed-writes.js';
import { TokenRequests } from '../support/token-requests.js';

/** Keys every create batch draws from, so that batches upsert the same postings at once. */
const SHARED_KEYS = 8;
const SHARED_PER_BATCH = 3;
/** Keys a batch alone writes: they show whether its transaction committed whole. */
const OWN_PER_BATCH = 2;
const EXPIRED_PER_BATCH = 3;
const DISPOSITIONS_PER_SEND = 5;
/** Applications the dispositions are drawn from (two statuses each): requests overlap. */
const APPLICATIONS = 12;

const CLIENTS = { create: 4, expire: 3, patch: 3, disposition: 2 };
/** Requests per client in the race. */
const RACE_ROUNDS = volume('JOBS_CLUSTER_RACE_ROUNDS', 10);
/** Acknowledged create batches before each kill. */
const KILL_AFTER = volume('JOBS_CLUSTER_KILL_AFTER_BATCHES', 16);

/**
 * The Jobs APIs' write paths as production runs them: a cluster of two workers, requests landing
 * on both. Racing createSourcedJobPostings batches upsert the same keys (at the root and under
 * jobsIngest) while expiries of those keys race them, patchEmployer calls patch one employer and
 * partnerDisposition.send calls overlap; then one more write of each, then SIGKILL of the whole
 * cluster and a restart; then a load during which one worker, and later the whole cluster, is
 * killed. After each: every acknowledged write is there, each posting and the employer hold one
 * write whole and none older than an acknowledged one, no batch is half written, and no request
 * got a 500 or an error it did not deserve.
 */
describeEachDialect(
  "reliability: the Jobs APIs' writes on a cluster of two workers",
  (database) => {
    let tenant: OAuthTenant;
    let env: Record<string, string>;
    let service: ServiceProcess | undefined;
    const postings = new PostingLedger();
    const employer = new EmployerPatchLedger({ type: 'ats-employer', id: 'acme-1' });
    const dispositions = new DispositionLedger();
    const random = seededRandom(Number(process.env.JOBS_CLUSTER_SEED ?? 23));
    let written = 0;
    /** Loads so far: each sends dispositions of applications of its own, which overlap. */
    let loads = 0;

    before(async () => {
      const { db } = database();
      tenant = await createOAuthTenant(db, systemClock, 'jobs-cluster');
      await enableApis(db, tenant.app.id, ['job-sync', 'employer-data', 'disposition-sync']);
      // Posting changes are written to the outbox in their transaction: their messages are checked.
      await testCliServices(db).webhooks.endpoints.create(tenant.app.id, {
        url: 'https://hooks.example.com/postings',
      });
      env = {
        ...(await fixedAddress()),
        ...RAISED_RATE_LIMITS,
        WEBHOOK_DELIVERY_WORKER: 'off',
        // A transaction the engine undoes (a deadlock) is retried unseen; without retries it
        // answers 503, which this test refuses.
        DATABASE_RETRIES: '0',
      };
      service = await startServiceProcess(database(), env, 'cluster');
    });
    afterEach(function () {
      // A timeout says nothing of where the service was: its last output does.
      if (this.currentTest?.state === 'failed') console.log(service?.output());
    });
    after(async () => {
      await service?.stop();
    });

    /** One partner client: its own client-credentials token for the tenant's employer. */
    async function client(): Promise<JobsApisClient> {
      const issued = await new TokenRequests(service!.url, tenant.app).clientCredentials(
        tenant.employer.id,
      );
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      return new JobsApisClient(service!.url, issued.body.access_token);
    }

    const outcomes = { acknowledged: 0, unanswered: 0, unavailable: 0, batches: 0 };
    /** 503s: with DATABASE_RETRIES=0, a deadlock or a serialization failure answers one. */
    const busy: string[] = [];
    function count(answer: Answer): void {
      if (answer.kind === 'data') outcomes.acknowledged += 1;
      else if (answer.kind === 'unanswered') outcomes.unanswered += 1;
      else if (answer.kind === 'unavailable') {
        outcomes.unavailable += 1;
        busy.push(answer.detail);
      }
    }

    /** A batch of shared keys (or `keys`) and keys of its own, in an order of its own. */
    async function createBatch(api: JobsApisClient, atRoot: boolean, keys?: string[]) {
      written += 1;
      const title = `Engineer, batch ${written}`;
      const own = Array.from({ length: OWN_PER_BATCH }, (_, i) => `own-${written}-${i}`);
      const shared = keys ?? pick(sharedKeys(), SHARED_PER_BATCH);
      const batch = shuffled([...shared, ...own]);
      const sent = await timed(() =>
        api.createPostings(
          batch.map((key) => postingInput(key, title)),
          atRoot,
        ),
      );
      postings.created(batch, own, title, sent);
      count(sent.answer);
      if (sent.answer.kind === 'data') outcomes.batches += 1;
      return sent.answer;
    }

    /** Expires shared keys (or `keys`) once created, each id in one of its two forms. */
    async function expireBatch(api: JobsApisClient, keys?: string[]): Promise<Answer> {
      let known = keys ?? [];
      for (const deadline = Date.now() + 30_000; !known.length;) {
        known = pick(sharedKeys(), EXPIRED_PER_BATCH).filter((key) => postings.idOf(key));
        // None created yet: the creating clients are on their first batches.
        if (!known.length) await new Promise((resolve) => setTimeout(resolve, 5));
        assert.ok(Date.now() < deadline, 'no shared posting was created within 30 s');
      }
      const ids = known.map((key) => {
        const id = postings.idOf(key)!;
        return random() < 0.5 ? id : employerJobIdOf(id);
      });
      const sent = await timed(() => api.expirePostings(ids));
      postings.expired(known, sent);
      count(sent.answer);
      return sent.answer;
    }

    async function patch(api: JobsApisClient, tag = `patch-${(written += 1)}`) {
      const sent = await timed(() => api.patchEmployer(employerPatch(employer.pair, tag)));
      employer.patched(tag, sent);
      count(sent.answer);
      return sent.answer;
    }

    async function send(api: JobsApisClient) {
      const batch = overlappingDispositions(
        DISPOSITIONS_PER_SEND,
        APPLICATIONS,
        `apply-${loads}`,
        random,
      );
      const answer = await api.sendDispositions(batch);
      dispositions.sent(batch, answer);
      count(answer);
      return answer;
    }

    /** Every kind of client, each sending until `done()`, all at once. */
    async function load(done: (round: number) => boolean): Promise<void> {
      loads += 1;
      const loop = async (work: (api: JobsApisClient) => Promise<unknown>) => {
        const api = await client();
        for (let round = 0; !done(round); round += 1) await work(api);
      };
      await Promise.all([
        ...Array.from({ length: CLIENTS.create }, (_, i) =>
          loop((api) => createBatch(api, i % 2 === 1)),
        ),
        ...Array.from({ length: CLIENTS.expire }, () => loop((api) => expireBatch(api))),
        ...Array.from({ length: CLIENTS.patch }, () => loop((api) => patch(api))),
        ...Array.from({ length: CLIENTS.disposition }, () => loop((api) => send(api))),
      ]);
    }

    /** Every ledger checked against the running service and the database. */
    async function checkEverything(): Promise<void> {
      const reader = await client();
      const checks: Record<string, LedgerCheck> = {
        postings: await postings.check(database().db, ownerOf(tenant), reader),
        employer: await employer.check(database().db, tenant.user.id),
        dispositions: await dispositions.check(reader),
      };
      for (const [name, check] of Object.entries(checks)) {
        console.log(`      ${name}: ${JSON.stringify(check.counts)}`);
        assert.deepEqual(check.problems, [], `${name}\n${service!.output()}`);
      }
      assert.deepEqual(
        [...postings.faults, ...employer.faults, ...dispositions.faults],
        [],
        'no request got an error it did not deserve',
      );
      assert.deepEqual(await halfWrittenRows(database().db), []);
      assert.deepEqual(busy, [], 'no transaction was undone by a deadlock or a conflict');
    }

    it('keeps every acknowledged write through racing requests, the next write and SIGKILL of both workers', async function () {
      this.timeout(240_000);
      const cpuBefore = service!.workerCpuSeconds();
      await load((round) => round >= RACE_ROUNDS);
      const cpu = service!.workerCpuSeconds().map((seconds, i) => seconds - cpuBefore[i]!);
      console.log(`      race: ${JSON.stringify(outcomes)}, worker CPU seconds ${cpu}`);
      assert.equal(outcomes.unanswered, 0, 'every racing request was answered');
      assert.ok(
        cpu.every((seconds) => seconds >= 0.2),
        `both workers served the race (CPU seconds ${cpu})`,
      );
      await checkEverything();

      // The next write of each kind, in turn, then SIGKILL of the cluster and a restart.
      const api = await client();
      const keys = sharedKeys();
      const last = await createBatch(api, false, keys);
      assert.equal(last.kind, 'data', JSON.stringify(last));
      const lastTitle = `Engineer, batch ${written}`;
      const expired = keys.slice(0, keys.length / 2);
      assert.equal((await expireBatch(api, expired)).kind, 'data');
      assert.equal((await patch(api, 'patch-last')).kind, 'data');
      assert.equal((await send(api)).kind, 'data');
      assert.deepEqual(service!.crashes(), []);
      await service!.killAll();
      service = await startServiceProcess(database(), env, 'cluster');
      await checkEverything();
      const rows = await database().db('job_postings').whereIn('job_posting_id', keys);
      for (const row of rows) {
        assert.equal(row.title, lastTitle);
        assert.equal(row.expired_at !== null, expired.includes(row.job_posting_id));
      }
      assert.equal(rows.length, keys.length);
    });

    it('leaves every batch whole or absent when a worker, then the whole cluster, dies mid-load', async function () {
      this.timeout(240_000);
      for (const wholeCluster of [false, true]) {
        const start = { ...outcomes };
        let stop = false;
        let goal = start.batches + KILL_AFTER;
        const running = load(() => stop);
        while (outcomes.batches < goal) await new Promise((resolve) => setTimeout(resolve, 5));
        if (wholeCluster) {
          stop = true;
          await service!.killAll();
        } else {
          service!.killWorker();
          // The load goes on against the surviving worker, then stops.
          goal = outcomes.batches + KILL_AFTER / 2;
          while (outcomes.batches < goal) await new Promise((resolve) => setTimeout(resolve, 5));
          stop = true;
        }
        await running;
        console.log(
          `      kill of ${wholeCluster ? 'the cluster' : 'one worker'}: ` +
            JSON.stringify({
              acknowledged: outcomes.acknowledged - start.acknowledged,
              batches: outcomes.batches - start.batches,
              unanswered: outcomes.unanswered - start.unanswered,
              unavailable: outcomes.unavailable - start.unavailable,
            }),
        );
        if (wholeCluster) {
          service = await startServiceProcess(database(), env, 'cluster');
        } else {
          await workersReplaced(service!);
          const crashes = service!.crashes();
          assert.ok(
            crashes.length === 1 && /worker died unexpectedly/.test(crashes[0]!),
            `only the worker this test killed died: ${crashes.join('\n')}`,
          );
        }
        await checkEverything();
      }
    });

    function sharedKeys(): string[] {
      return Array.from({ length: SHARED_KEYS }, (_, i) => `shared-${i}`);
    }

    function pick<T>(items: T[], count: number): T[] {
      return shuffled(items).slice(0, count);
    }

    function shuffled<T>(items: T[]): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy;
    }
  },
);

function ownerOf(tenant: OAuthTenant): { appId: string; employerId: string } {
  return { appId: tenant.app.id, employerId: tenant.employer.id };
}
