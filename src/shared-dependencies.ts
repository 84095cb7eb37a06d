import type { Logger } from 'pino';
import { AuditLog } from './audit/audit-log.js';
import { AuditStore } from './audit/audit-store.js';
import type { Clock } from './clock.js';
import type { Config, RateLimit } from './config.js';
import type { Database } from './db/database.js';
import { RateLimitStore } from './security/rate-limit-store.js';
import { RateLimiter } from './security/rate-limiter.js';
import { SecretBox } from './security/secret-box.js';

/**
 * One box per purpose of encryption at rest. Each derives its own key from KEY_ENCRYPTION_SECRET,
 * so a value sealed for one purpose never opens under another.
 */
export interface SecretBoxes {
  /** Private halves of the token signing keys. */
  signingKeys: SecretBox;
  /** Lobby capability tokens, so that the API can show an event's links again. */
  lobbyTokens: SecretBox;
  /** Recording streaming tokens, so that the API can show a record's recording URL again. */
  recordingTokens: SecretBox;
  /** Copies of client secrets, for the console's password-gated reveal. */
  clientSecrets: SecretBox;
  /** A new client secret waiting for its one display on the console. */
  secretReveals: SecretBox;
  /** Webhook endpoint secrets (`whsec_...`), which sign every delivery. */
  webhookSecrets: SecretBox;
}

/** The purpose (HKDF info) of each box; changing one makes everything sealed under it unreadable. */
const BOX_PURPOSES: Record<keyof SecretBoxes, string> = {
  signingKeys: 'signing-keys',
  lobbyTokens: 'lobby-tokens',
  recordingTokens: 'recording-tokens',
  clientSecrets: 'client-secrets',
  secretReveals: 'secret-reveals',
  webhookSecrets: 'webhook-secrets',
};

/**
 * What every capability is built from. The entry points (src/server.ts, the CLI) make one of
 * these and hand it to each capability's compose function; nothing else opens the database or
 * derives keys.
 */
export interface SharedDependencies {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly config: Config;
  /**
   * The resolved KEY_ENCRYPTION_SECRET, for the classes that derive a MAC key of their own from
   * it (each under its own label): CSRF tokens, interviewer cookies, pagination cursors.
   */
  readonly serverSecret: string;
  readonly boxes: SecretBoxes;
  /** The one audit trail every capability records to. */
  readonly audit: AuditLog;
}

export function createSharedDependencies(input: {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** From resolveKeyEncryptionSecret(config, logger). */
  keyEncryptionSecret: string;
}): SharedDependencies {
  const { db, clock, logger, config, keyEncryptionSecret } = input;
  const box = (purpose: keyof SecretBoxes) =>
    new SecretBox(keyEncryptionSecret, BOX_PURPOSES[purpose]);
  return {
    db,
    clock,
    logger,
    config,
    serverSecret: keyEncryptionSecret,
    boxes: {
      signingKeys: box('signingKeys'),
      lobbyTokens: box('lobbyTokens'),
      recordingTokens: box('recordingTokens'),
      clientSecrets: box('clientSecrets'),
      secretReveals: box('secretReveals'),
      webhookSecrets: box('webhookSecrets'),
    },
    audit: new AuditLog(new AuditStore(db), clock, logger),
  };
}

/**
 * A limiter whose counters live in the shared database, so its limit holds across processes.
 * `name` prefixes its keys: limiters of the same name would share one budget, so each budget is
 * built once, by the capability that owns it, and handed to whoever else counts against it.
 */
export function createRateLimiter(
  shared: SharedDependencies,
  name: string,
  limit: RateLimit,
): RateLimiter {
  return new RateLimiter(new RateLimitStore(shared.db), name, limit, shared.clock);
}
