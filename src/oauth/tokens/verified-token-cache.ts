import { createHash } from 'node:crypto';

/**
 * Access tokens verified a moment ago, with what verifying them found, for a short time
 * (TOKEN_VERIFICATION_CACHE_MS). Keyed by the token's SHA-256, so no bearer token is kept in
 * memory as a key. Bounded: past `maxEntries`, the oldest entry makes room.
 */
export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(private readonly maxEntries: number) {}

  get(token: string, now: number): T | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps `value` until `until` (epoch ms). */
  set(token: string, value: T, until: number): void {
    const key = keyOf(token);
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until });
  }

  clear(): void {
    this.entries.clear();
  }
}

function keyOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
