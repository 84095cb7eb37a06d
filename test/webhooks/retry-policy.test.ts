import assert from 'node:assert/strict';
import { retryAfterMs, verdictOf } from '../../src/webhooks/retry-policy.js';

const NOW = Date.UTC(2026, 10, 1, 12, 0, 0);
const settings = { retryScheduleMs: [5000, 300_000], retryAfterMaxMs: 3_600_000 };

describe('webhook retry policy', () => {
  it('delivers on any 2xx and clears the endpoint', () => {
    for (const statusCode of [200, 201, 204, 299]) {
      assert.deepEqual(verdictOf({ statusCode }, 0, NOW, settings), {
        settlement: { status: 'delivered', at: NOW },
        outcome: 'delivered',
        endpoint: 'answered',
      });
    }
  });

  it('fails the delivery and disables the endpoint on 410', () => {
    const verdict = verdictOf({ statusCode: 410 }, 0, NOW, settings);
    assert.deepEqual(verdict.settlement, { status: 'failed' });
    assert.equal(verdict.endpoint, 'gone');
  });

  it('retries anything else after the schedule’s pause, ±20 %', () => {
    for (const statusCode of [null, 301, 400, 404, 500, 502]) {
      const low = verdictOf({ statusCode }, 1, NOW, settings, () => 0);
      const high = verdictOf({ statusCode }, 1, NOW, settings, () => 1);
      assert.deepEqual(low.settlement, { status: 'pending', nextAttemptAt: NOW + 240_000 });
      assert.deepEqual(high.settlement, { status: 'pending', nextAttemptAt: NOW + 360_000 });
      assert.equal(low.endpoint, 'failing');
      assert.equal(low.outcome, 'retrying');
    }
  });

  it('fails the delivery after the attempt that follows the last pause', () => {
    const verdict = verdictOf({ statusCode: 500 }, 2, NOW, settings);
    assert.deepEqual(verdict.settlement, { status: 'failed' });
    assert.equal(verdict.outcome, 'failed');
    assert.equal(verdict.endpoint, 'failing');
  });

  it('waits for Retry-After on 429 and 503, capped, never sooner than the schedule', () => {
    const at = (retryAfter: string, statusCode = 429, attemptsBefore = 0) => {
      const { settlement } = verdictOf(
        { statusCode, retryAfter },
        attemptsBefore,
        NOW,
        settings,
        () => 0.5,
      );
      assert.equal(settlement.status, 'pending');
      return (settlement as { nextAttemptAt: number }).nextAttemptAt - NOW;
    };
    assert.equal(at('120'), 120_000);
    assert.equal(at('120', 503), 120_000);
    assert.equal(at(new Date(NOW + 90_000).toUTCString()), 90_000);
    assert.equal(at('999999'), 3_600_000, 'capped by WEBHOOK_RETRY_AFTER_MAX_SECONDS');
    assert.equal(at('1'), 5000, 'the schedule’s pause when Retry-After asks for less');
    assert.equal(at('1', 429, 1), 300_000);
    assert.equal(at('nonsense'), 5000);
    assert.equal(at('120', 500), 5000, 'only 429 and 503 are asked to wait');
    // 429 counts as an attempt: after the last pause it fails like anything else.
    assert.deepEqual(verdictOf({ statusCode: 429, retryAfter: '1' }, 2, NOW, settings).settlement, {
      status: 'failed',
    });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(retryAfterMs('0', NOW), 0);
    assert.equal(retryAfterMs(' 30 ', NOW), 30_000);
    assert.equal(retryAfterMs('Sun, 01 Nov 2026 12:01:00 GMT', NOW), 60_000);
    assert.equal(retryAfterMs('Sun, 01 Nov 2026 11:00:00 GMT', NOW), 0, 'a past date: now');
    assert.equal(retryAfterMs('-5', NOW), undefined);
    assert.equal(retryAfterMs('1.5', NOW), undefined);
    assert.equal(retryAfterMs('soon', NOW), undefined);
  });
});
