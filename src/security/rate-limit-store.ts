import type { RateLimitWindowRow } from '../db/rows.js';
import { Store } from '../db/store.js';

export interface RateLimitWindow {
  hits: number;
  resetsAt: number;
}

const TABLE = 'rate_limit_windows';

/**
 * SQL for fixed-window rate-limit counters. Each count is one atomic statement (an upsert
 * that starts a new window when the old one has ended), so it needs no transaction and holds
 * across every process that shares the database, on SQLite and PostgreSQL alike.
 */
export class RateLimitStore extends Store {
  /** Counts `count` attempts against `key`; the window as it stands after them. */
  async hit(key: string, now: number, windowMs: number, count = 1): Promise<RateLimitWindow> {
    const ended = `${TABLE}.resets_at <= ?`;
    const rows: Array<Pick<RateLimitWindowRow, 'hits' | 'resets_at'>> = await this.db(TABLE)
      .insert({ key, hits: count, resets_at: now + windowMs })
      .onConflict('key')
      .merge({
        hits: this.db.raw(
          `case when ${ended} then excluded.hits else ${TABLE}.hits + excluded.hits end`,
          [now],
        ),
        resets_at: this.db.raw(
          `case when ${ended} then excluded.resets_at else ${TABLE}.resets_at end`,
          [now],
        ),
      })
      .returning(['hits', 'resets_at']);
    const row = rows[0];
    if (!row) throw new Error('rate-limit upsert returned no row');
    return { hits: row.hits, resetsAt: Number(row.resets_at) };
  }

  /** The current window of `key`, or undefined when it has none open at `now`. */
  async current(key: string, now: number): Promise<RateLimitWindow | undefined> {
    const row = await this.db(TABLE)
      .where({ key })
      .andWhere('resets_at', '>', now)
      .first<Pick<RateLimitWindowRow, 'hits' | 'resets_at'> | undefined>('hits', 'resets_at');
    return row && { hits: row.hits, resetsAt: Number(row.resets_at) };
  }

  async forget(key: string): Promise<void> {
    await this.db(TABLE).where({ key }).delete();
  }

  /** Deletes windows that ended before `now`; returns how many. */
  purgeEnded(now: number): Promise<number> {
    return this.db(TABLE).where('resets_at', '<=', now).delete();
  }
}
