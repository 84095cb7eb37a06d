import type { AccountStore } from '../../accounts/account-store.js';
import type { AppStore } from '../../accounts/app-store.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { RateLimiter } from '../../security/rate-limiter.js';
import type { AuthorizationCodes } from '../authorization-codes.js';

/** What the authorization endpoint and its pages are given by the composition root. */
export interface AuthorizeDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  accounts: AccountStore;
  apps: AppStore;
  codes: AuthorizationCodes;
  audit: AuditLog;
  /** Counts failed sign-ins per client IP and email. */
  signInLimiter: RateLimiter;
  /**
   * Secret from which the key of pre-sign-in CSRF tokens is derived. Defaults to
   * config.keyEncryptionSecret (mandatory in production); without either, each process draws a
   * random key, so a sign-in form shown before a restart is refused after it. The composition
   * root can pass the resolved key-encryption secret here.
   */
  formSecret?: string;
}
