import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite } from 'rate-limiter-flexible';
import type { RateLimit } from '../config.js';
import { isPostgres, type Database } from '../db/database.js';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A fixed-window limiter whose counters live in the service's database (rate_limit_counters),
 * so the limit holds across every process that shares it.
 */
export class RateLimiter {
  private readonly limiter: RateLimiterPostgres | RateLimiterSQLite;

  constructor(db: Database, name: string, limit: RateLimit) {
    const options = {
      storeClient: db,
      storeType: 'knex',
      tableName: 'rate_limit_counters',
      tableCreated: true,
      keyPrefix: name,
      points: limit.max,
      duration: limit.windowSeconds,
    };
    this.limiter = isPostgres(db)
      ? new RateLimiterPostgres(options)
      : new RateLimiterSQLite(options);
  }

  /** Counts one attempt against `key` and says whether it is still within the limit. */
  async consume(key: string): Promise<RateLimitDecision> {
    try {
      await this.limiter.consume(key);
      return { allowed: true };
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)),
        };
      }
      throw outcome;
    }
  }

  /** Whether `key` has already used up its attempts, without counting a new one. */
  async isBlocked(key: string): Promise<RateLimitDecision> {
    const state = await this.limiter.get(key);
    if (state && state.consumedPoints >= this.limiter.points) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)),
      };
    }
    return { allowed: true };
  }

  /** Forgets `key`'s attempts, for example after a successful sign-in. */
  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}
