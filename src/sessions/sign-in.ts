import type { AccountStore } from '../accounts/account-store.js';
import type { AuditLog, RequestOrigin } from '../audit/audit-log.js';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from '../security/passwords.js';
import { sha256Hex } from '../security/random.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { isPossibleIdentifier } from '../security/text-safety.js';
import { MAX_EMAIL_LENGTH } from '../validation/email.js';
import type { SessionStore } from './session-store.js';
import type { BrowserSessions, NewSession } from './sessions.js';

export interface SignInAttempt {
  email: string;
  password: string;
  /** The client's IP address: half of the rate-limit key, and recorded in the audit trail. */
  ip: string;
  /** The request's id, recorded in the audit trail. */
  requestId?: string;
  /** The app the user is signing in for; absent on the partner console. */
  appId?: string;
}

export type SignInOutcome =
  | { outcome: 'signed-in'; created: NewSession }
  /** Wrong email or password; deliberately not saying which. */
  | { outcome: 'invalid' }
  | { outcome: 'rate-limited'; retryAfterSeconds: number };

export interface SignInDependencies {
  accounts: AccountStore;
  sessions: BrowserSessions;
  /** Where sessions are stored: a new session and its audit entry commit together. */
  sessionStore: SessionStore;
  /** The one budget of failed attempts, per client IP and email, of every sign-in form. */
  limiter: RateLimiter;
  audit: AuditLog;
}

/**
 * Email-and-password sign-in, shared by the authorization pages and the partner console (one
 * session, one attempt budget). Failed attempts are counted per client IP and email; once the
 * limit is reached further attempts are refused before any password is checked. An unknown email
 * costs the same scrypt work as a wrong password, so timing does not reveal which accounts exist.
 * Neither the password nor the typed email is written to the audit trail.
 */
export class SignIn {
  private decoyHash: Promise<string> | undefined;

  constructor(private readonly deps: SignInDependencies) {}

  async attempt(attempt: SignInAttempt): Promise<SignInOutcome> {
    const { limiter, audit } = this.deps;
    const key = rateLimitKey(attempt.ip, attempt.email);
    const blocked = await limiter.isBlocked(key);
    if (!blocked.allowed) return this.rateLimited(attempt, blocked.retryAfterSeconds);

    const email = attempt.email.trim();
    // An address no account can have costs the same as an unknown one, without a lookup.
    const user = isPossibleIdentifier(email, MAX_EMAIL_LENGTH)
      ? await this.deps.accounts.findUserByEmail(email)
      : undefined;
    const passwordOk = await this.checkPassword(attempt.password, user?.password_hash);
    if (!user || !passwordOk) {
      const counted = await limiter.consume(key);
      await audit.record({
        type: 'sign_in.failed',
        actorUserId: user?.id ?? null,
        appId: attempt.appId ?? null,
        ip: attempt.ip,
        requestId: attempt.requestId,
        details: { reason: user ? 'wrong_password' : 'unknown_email' },
      });
      if (!counted.allowed) return this.rateLimited(attempt, counted.retryAfterSeconds);
      return { outcome: 'invalid' };
    }

    await limiter.reset(key);
    return {
      outcome: 'signed-in',
      created: await this.startSession(user.id, attempt, attempt.appId),
    };
  }

  /** Opens a session for a user who has just proved who they are (signed in or signed up). */
  async startSession(userId: string, origin: RequestOrigin, appId?: string): Promise<NewSession> {
    return this.deps.sessionStore.inTransaction(async (store, tx) => {
      const session = await this.deps.sessions.create(userId, store);
      await this.deps.audit.record(
        {
          type: 'sign_in.succeeded',
          actorUserId: userId,
          appId: appId ?? null,
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return session;
    });
  }

  private async rateLimited(attempt: SignInAttempt, retryAfterSeconds: number) {
    await this.deps.audit.record({
      type: 'sign_in.rate_limited',
      appId: attempt.appId ?? null,
      ip: attempt.ip,
      requestId: attempt.requestId,
      details: { retry_after_seconds: retryAfterSeconds },
    });
    return { outcome: 'rate-limited' as const, retryAfterSeconds };
  }

  /** Runs scrypt even without a user (against a decoy hash) so both failures take as long. */
  private async checkPassword(password: string, storedHash: string | undefined): Promise<boolean> {
    if (password.length > MAX_PASSWORD_LENGTH) return false;
    this.decoyHash ??= hashPassword('decoy password that matches no account');
    const ok = await verifyPassword(password, storedHash ?? (await this.decoyHash));
    return storedHash !== undefined && ok;
  }
}

/** Client IP plus the lower-cased email, the email digested so the key stays short and private. */
function rateLimitKey(ip: string, email: string): string {
  return `${ip}|${sha256Hex(email.trim().toLowerCase())}`;
}
