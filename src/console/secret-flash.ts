import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { SecretBox } from '../security/secret-box.js';

/** How long a new secret waits for its one display. */
export const SECRET_FLASH_TTL_MS = 5 * 60 * 1000;

/**
 * Carries a client secret from the POST that created it to the one page that shows it, never
 * in a URL or a cookie. The secret waits, sealed, in the database, keyed by browser session and
 * app, so any process can serve that page; it is handed out once and expires after minutes.
 */
export class SecretFlash {
  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly ttlMs = SECRET_FLASH_TTL_MS,
  ) {}

  async put(sessionIdHash: string, clientId: string, secret: string): Promise<void> {
    const now = this.clock.now();
    await this.db('secret_reveals').where('expires_at', '<=', now).delete();
    await this.db('secret_reveals')
      .insert({
        session_id_hash: sessionIdHash,
        client_id: clientId,
        secret_encrypted: this.box.seal(secret),
        expires_at: now + this.ttlMs,
      })
      .onConflict(['session_id_hash', 'client_id'])
      .merge();
  }

  /** The secret waiting for this session and app, removed as it is read (only one reader wins). */
  async take(sessionIdHash: string, clientId: string): Promise<string | undefined> {
    const key = { session_id_hash: sessionIdHash, client_id: clientId };
    const row: { secret_encrypted: string; expires_at: number } | undefined = await this.db(
      'secret_reveals',
    )
      .where(key)
      .first('secret_encrypted', 'expires_at');
    if (!row) return undefined;
    const removed = await this.db('secret_reveals').where(key).delete();
    if (removed !== 1 || row.expires_at <= this.clock.now()) return undefined;
    return this.box.open(row.secret_encrypted);
  }
}
