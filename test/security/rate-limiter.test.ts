import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/database.js';
import { RateLimitStore } from '../../src/security/rate-limit-store.js';
import { RateLimiter } from '../../src/security/rate-limiter.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';

describeEachDialect('rate limiter', (database) => {
  const limit = { max: 25, windowSeconds: 60 };

  it('admits exactly `max` of many concurrent attempts, counted across two processes', async () => {
    const clock = new ManualClock();
    // A second connection pool on the same database stands for a second process.
    const other = openDatabase(database().config, silentLogger);
    try {
      const here = new RateLimiter(new RateLimitStore(database().db), 'race', limit, clock);
      const there = new RateLimiter(new RateLimitStore(other), 'race', limit, clock);
      const decisions = await Promise.all(
        Array.from({ length: 80 }, (_, i) => (i % 2 ? here : there).consume('client-a')),
      );
      assert.equal(decisions.filter((decision) => decision.allowed).length, limit.max);
      const refused = decisions.find((decision) => !decision.allowed);
      assert.deepEqual(refused, { allowed: false, retryAfterSeconds: 60 });
      assert.equal((await there.isBlocked('client-a')).allowed, false);
      assert.equal((await here.consume('client-b')).allowed, true, 'keys are counted apart');
    } finally {
      await other.destroy();
    }
  });

  it('counts concurrent attempts on several keys together, each key exactly', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(new RateLimitStore(database().db), 'keys', limit, clock);
    const keys = ['a', 'b', 'c'];
    const decisions = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        limiter.consume(keys[i % 3]!).then((decision) => ({ key: keys[i % 3]!, decision })),
      ),
    );
    for (const key of keys) {
      const admitted = decisions.filter((d) => d.key === key && d.decision.allowed).length;
      assert.equal(admitted, limit.max, `key ${key}`);
    }
    // Within a key, the first attempts are the admitted ones, as if counted one at a time.
    const ofA = decisions.filter((d) => d.key === 'a').map((d) => d.decision.allowed);
    assert.deepEqual(ofA, [...Array(limit.max).fill(true), ...Array(40 - limit.max).fill(false)]);
  });

  it('opens a new window when the old one ends, and forgets a key on reset', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(new RateLimitStore(database().db), 'window', limit, clock);
    for (let i = 0; i < limit.max; i++) await limiter.consume('k');
    clock.advance(30_000);
    assert.deepEqual(await limiter.consume('k'), { allowed: false, retryAfterSeconds: 30 });
    clock.advance(30_000);
    assert.deepEqual(await limiter.consume('k'), { allowed: true });
    for (let i = 0; i < limit.max; i++) await limiter.consume('k');
    assert.equal((await limiter.isBlocked('k')).allowed, false);
    await limiter.reset('k');
    assert.deepEqual(await limiter.isBlocked('k'), { allowed: true });
  });

  it('stores a bounded key whatever the client sends (long, NUL, unicode)', async () => {
    const limiter = new RateLimiter(
      new RateLimitStore(database().db),
      'hostile',
      limit,
      new ManualClock(),
    );
    for (const key of ['x'.repeat(100_000), 'nul\u0000byte', '\ud83d\ude00 emoji', '']) {
      assert.deepEqual(await limiter.consume(key), { allowed: true });
    }
    const keys = await database().db('rate_limit_windows').where('key', 'like', 'hostile:%');
    assert.equal(keys.length, 4);
    for (const row of keys as Array<{ key: string }>) assert.ok(row.key.length <= 96);
  });
});
