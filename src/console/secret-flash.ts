import type { Clock } from '../clock.js';

/** How long a new secret waits for its one display. */
export const SECRET_FLASH_TTL_MS = 5 * 60 * 1000;
/** Upper bound on secrets waiting at once, so a flood of rotations cannot grow memory. */
const MAX_WAITING = 10_000;

interface Waiting {
  secret: string;
  expiresAt: number;
}

/**
 * Carries a client secret from the POST that created it to the one page that shows it, without
 * putting it in a URL, a cookie or the database. Entries are keyed by browser session and app,
 * are handed out once, and are forgotten after a few minutes.
 *
 * Held in process memory: behind a load balancer the page after a rotation must reach the same
 * process (the secret is otherwise simply not shown, and the user can rotate again).
 */
export class SecretFlash {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = SECRET_FLASH_TTL_MS,
  ) {}

  put(sessionIdHash: string, clientId: string, secret: string): void {
    this.forgetExpired();
    const key = flashKey(sessionIdHash, clientId);
    this.waiting.delete(key);
    if (this.waiting.size >= MAX_WAITING) {
      // Map iteration follows insertion order: drop the oldest.
      const oldest = this.waiting.keys().next();
      if (!oldest.done) this.waiting.delete(oldest.value);
    }
    this.waiting.set(key, { secret, expiresAt: this.clock.now() + this.ttlMs });
  }

  /** The secret waiting for this session and app, removed as it is read. */
  take(sessionIdHash: string, clientId: string): string | undefined {
    const key = flashKey(sessionIdHash, clientId);
    const entry = this.waiting.get(key);
    if (!entry) return undefined;
    this.waiting.delete(key);
    return entry.expiresAt > this.clock.now() ? entry.secret : undefined;
  }

  private forgetExpired(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.waiting) {
      if (entry.expiresAt <= now) this.waiting.delete(key);
    }
  }
}

function flashKey(sessionIdHash: string, clientId: string): string {
  return `${sessionIdHash} ${clientId}`;
}
