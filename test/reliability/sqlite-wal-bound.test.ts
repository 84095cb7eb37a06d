import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { systemClock } from '../../src/clock.js';
import { runConcurrently, tally, volume } from '../support/concurrency.js';
import { describeEachDeployment, startDeployment } from '../support/deployments.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS, startServiceProcess } from '../support/service-process.js';
import { jtiOf, TokenRequests } from '../support/token-requests.js';

/** A small threshold, so that the load below crosses it many times. */
const PAGES = 100;
/** The writes' gate (src/db/dialects/sqlite-checkpointer.ts WRITE_GATE_FACTOR), and slack. */
const WAL_BOUND_BYTES = (8 * PAGES + 200) * (4096 + 24);
const TOKENS = volume('RELIABILITY_WAL_TOKENS', 4000);

/**
 * Checkpoints run on a thread of their own in every process (src/db/dialects/
 * sqlite-checkpointer.ts), the writers' automatic checkpoint mostly off: under a steady stream of
 * persisted tokens, in one process and in the two-worker production cluster (two writers, two
 * threads, one file), the WAL file stays within its bound, and every token is answered.
 */
describeEachDeployment('reliability: the SQLite WAL under sustained writes', (database, kind) => {
  let tenant: OAuthTenant;

  before(async function () {
    if (database().dialect !== 'sqlite') this.skip();
    tenant = await createOAuthTenant(database().db, systemClock, 'wal-bound');
  });

  it(`stays within its bound through ${TOKENS} persisted tokens`, async function () {
    this.timeout(180_000);
    const { config } = database();
    assert.ok(config.client === 'sqlite');
    const wal = `${config.filename}-wal`;
    const service = await startDeployment(
      { ...database(), config: { ...config, checkpointPages: PAGES } },
      kind,
      { ...RAISED_RATE_LIMITS, SQLITE_CHECKPOINT_PAGES: String(PAGES) },
    );
    let largest = 0;
    const sampler = setInterval(() => {
      if (existsSync(wal)) largest = Math.max(largest, statSync(wal).size);
    }, 5);
    try {
      const tokens = new TokenRequests(service.url, tenant.app);
      const outcomes = await runConcurrently(TOKENS, 16, () =>
        tokens.clientCredentials(tenant.employer.id),
      );
      const statuses = tally(outcomes, (o) =>
        o.status === 'fulfilled' ? `${o.value.status}` : 'failed',
      );
      assert.deepEqual(statuses, { 200: TOKENS });
    } finally {
      clearInterval(sampler);
      await service.stop();
    }
    assert.ok(largest > 0, 'the WAL was seen');
    assert.ok(largest <= WAL_BOUND_BYTES, `WAL reached ${largest} bytes, bound ${WAL_BOUND_BYTES}`);
    const tokensKept = await database().db('access_tokens').count({ n: '*' });
    assert.ok(Number(tokensKept[0]!.n) >= TOKENS);
  });
});

/**
 * SIGKILL of the whole cluster while both threads checkpoint all the time (a 20-page threshold):
 * a checkpoint cut short leaves the database file and the WAL as SQLite expects after a crash,
 * and every token answered before the kill is in the database after it.
 */
describeEachDeployment('reliability: SIGKILL while the WAL is checkpointed', (database, kind) => {
  before(function () {
    if (database().dialect !== 'sqlite' || kind !== 'cluster') this.skip();
  });

  it('keeps every acknowledged token', async function () {
    this.timeout(180_000);
    const tenant = await createOAuthTenant(database().db, systemClock, 'wal-kill');
    const env = { ...RAISED_RATE_LIMITS, SQLITE_CHECKPOINT_PAGES: '20' };
    const service = await startServiceProcess(database(), env, 'cluster');
    const acknowledged: string[] = [];
    let killed = false;
    const tokens = new TokenRequests(service.url, tenant.app);
    const load = Array.from({ length: 16 }, async () => {
      while (!killed) {
        try {
          const answer = await tokens.clientCredentials(tenant.employer.id);
          if (answer.status === 200 && !killed) acknowledged.push(jtiOf(answer.body.access_token));
        } catch {
          // In flight at the kill: never acknowledged.
        }
      }
    });
    // Past the thread's start (1 s after the writer opens), checkpoints running.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    killed = true;
    await service.kill();
    await Promise.all(load);
    assert.ok(acknowledged.length > 100, `${acknowledged.length} tokens before the kill`);

    const restarted = await startServiceProcess(database(), env, 'cluster');
    try {
      const found = new Set(
        (
          await database()
            .db('access_tokens')
            .whereIn('jti', acknowledged)
            .select<Array<{ jti: string }>>('jti')
        ).map((row) => row.jti),
      );
      assert.deepEqual(
        acknowledged.filter((jti) => !found.has(jti)),
        [],
      );
      const check = await database().db.raw('PRAGMA integrity_check');
      assert.deepEqual(check, [{ integrity_check: 'ok' }]);
    } finally {
      await restarted.stop();
    }
  });
});
