import type { Clock } from '../clock.js';
import type { RateLimitStore, RateLimitWindow } from './rate-limit-store.js';

interface Waiter {
  resolve(window: RateLimitWindow): void;
  reject(error: unknown): void;
}

/**
 * Counts rate-limit hits the way the store does, one at a time in effect, but with one statement
 * per key for all the hits that arrive while the previous count is in flight, all keys in one
 * transaction, in sorted order. Under load that turns hundreds of counter writes a second into a few, without
 * loosening the limit: the n-th hit of a group is told the count it would have seen alone.
 */
export class CoalescedHits {
  private waiting = new Map<string, Waiter[]>();
  private counting = false;

  constructor(
    private readonly store: RateLimitStore,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one hit against `key`: the window as it stood right after this hit. */
  hit(key: string): Promise<RateLimitWindow> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.counting) {
        this.counting = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.size) {
      const group = this.waiting;
      this.waiting = new Map();
      await this.count(group);
    }
    this.counting = false;
  }

  private async count(group: Map<string, Waiter[]>): Promise<void> {
    const now = this.clock.now();
    // Keys in one order everywhere: two processes counting the same keys at once lock their rows
    // in the same order, so neither can hold a row the other is waiting for (a deadlock).
    const keys = [...group.keys()].sort();
    let windows: RateLimitWindow[];
    try {
      // One key's count is one atomic statement; several share one transaction (one commit).
      windows =
        keys.length === 1
          ? [await this.store.hit(keys[0]!, now, this.windowMs, group.get(keys[0]!)!.length)]
          : await this.store.inTransaction(async (store) => {
              const counted: RateLimitWindow[] = [];
              for (const key of keys) {
                counted.push(await store.hit(key, now, this.windowMs, group.get(key)!.length));
              }
              return counted;
            });
    } catch (error) {
      for (const waiters of group.values()) for (const waiter of waiters) waiter.reject(error);
      return;
    }
    keys.forEach((key, index) => {
      const window = windows[index]!;
      const waiters = group.get(key)!;
      const before = window.hits - waiters.length;
      waiters.forEach((waiter, position) =>
        waiter.resolve({ hits: before + position + 1, resetsAt: window.resetsAt }),
      );
    });
  }
}
