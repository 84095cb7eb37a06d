import type { Clock } from '../clock.js';
import type { SecretBox } from '../security/secret-box.js';
import type { SecretRevealStore } from './secret-reveal-store.js';

/** How long a new secret waits for its one display. */
export const SECRET_FLASH_TTL_MS = 5 * 60 * 1000;

/**
 * Carries a client secret from the POST that created it to the one page that shows it, never
 * in a URL or a cookie. The secret waits, sealed, in the database, keyed by browser session and
 * app, so any process can serve that page; it is handed out once and expires after minutes.
 */
export class SecretFlash {
  constructor(
    private readonly store: SecretRevealStore,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly ttlMs = SECRET_FLASH_TTL_MS,
  ) {}

  async put(sessionIdHash: string, clientId: string, secret: string): Promise<void> {
    const now = this.clock.now();
    await this.store.purgeExpired(now);
    await this.store.put({
      session_id_hash: sessionIdHash,
      client_id: clientId,
      secret_encrypted: this.box.seal(secret),
      expires_at: now + this.ttlMs,
    });
  }

  /** The secret waiting for this session and app, removed as it is read (only one reader wins). */
  async take(sessionIdHash: string, clientId: string): Promise<string | undefined> {
    const key = { session_id_hash: sessionIdHash, client_id: clientId };
    const row = await this.store.find(key);
    if (!row) return undefined;
    const removed = await this.store.delete(key);
    if (!removed || row.expires_at <= this.clock.now()) return undefined;
    return this.box.open(row.secret_encrypted);
  }
}
