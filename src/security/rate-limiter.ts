import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { RateLimit } from '../config.js';
import { CoalescedHits } from './coalesced-hits.js';
import type { RateLimitStore } from './rate-limit-store.js';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Ended windows are deleted by roughly one count in this many, so the table stays small. */
const PURGE_EVERY = 1000;

/**
 * A fixed-window limiter: at most `limit.max` attempts per key in each window of
 * `limit.windowSeconds`. Counters live in the database, so the limit holds across every process
 * that shares it. Keys are hashed: whatever a client sends, a stored key is short and bounded.
 */
export class RateLimiter {
  private readonly windowMs: number;
  private readonly hits: CoalescedHits;
  private counts = 0;

  constructor(
    private readonly store: RateLimitStore,
    private readonly name: string,
    private readonly limit: RateLimit,
    private readonly clock: Clock,
  ) {
    this.windowMs = limit.windowSeconds * 1000;
    this.hits = new CoalescedHits(store, this.windowMs, clock);
  }

  /** Counts one attempt against `key` and says whether it is still within the limit. */
  async consume(key: string): Promise<RateLimitDecision> {
    const now = this.clock.now();
    const window = await this.hits.hit(this.storedKey(key));
    if (++this.counts % PURGE_EVERY === 0) await this.store.purgeEnded(now);
    return window.hits > this.limit.max ? this.refusal(window.resetsAt, now) : { allowed: true };
  }

  /** Whether `key` has already used up its attempts, without counting a new one. */
  async isBlocked(key: string): Promise<RateLimitDecision> {
    const now = this.clock.now();
    const window = await this.store.current(this.storedKey(key), now);
    return window && window.hits >= this.limit.max
      ? this.refusal(window.resetsAt, now)
      : { allowed: true };
  }

  /** Forgets `key`'s attempts, for example after a successful sign-in. */
  async reset(key: string): Promise<void> {
    await this.store.forget(this.storedKey(key));
  }

  private storedKey(key: string): string {
    return `${this.name}:${createHash('sha256').update(key).digest('base64url')}`;
  }

  private refusal(resetsAt: number, now: number): RateLimitDecision {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetsAt - now) / 1000)) };
  }
}
