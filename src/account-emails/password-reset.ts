import type { Logger } from 'pino';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditLog, RequestOrigin } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { Mailer } from '../mail/mailer.js';
import { hashPassword, passwordProblem } from '../security/passwords.js';
import { sha256Hex } from '../security/random.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { isPossibleIdentifier } from '../security/text-safety.js';
import type { BrowserSessions } from '../sessions/sessions.js';
import { MAX_EMAIL_LENGTH } from '../validation/email.js';
import type { EmailLinks, EmailLinkUrls, LinkCheck, LinkProblem } from './email-links.js';
import { passwordResetMail } from './messages.js';
import { BackgroundMail } from './background-mail.js';

export const RESET_LINK_LIFETIME_MS = 60 * 60 * 1000;

export interface PasswordResetDependencies {
  links: EmailLinks;
  urls: EmailLinkUrls;
  accounts: AccountStore;
  sessions: BrowserSessions;
  mailer: Mailer;
  /** Requests per client IP. */
  ipLimiter: RateLimiter;
  /** Requests per typed address, whether or not an account has it. */
  emailLimiter: RateLimiter;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
}

export type RequestOutcome =
  { outcome: 'accepted' } | { outcome: 'rate-limited'; retryAfterSeconds: number };

export type ResetOutcome =
  | { outcome: 'reset'; userId: string }
  | { outcome: 'bad-password'; message: string }
  | { outcome: 'bad-link'; problem: LinkProblem };

/**
 * "Forgot password?": a single-use link valid for an hour, mailed to the address if an account
 * has it. The answer to a request never depends on whether one does: the lookup and the mail
 * happen after the answer. Choosing the new password signs the user out of every browser and
 * verifies the address (the link proved they read its mail).
 */
export class PasswordReset {
  private readonly background: BackgroundMail;

  constructor(private readonly deps: PasswordResetDependencies) {
    this.background = new BackgroundMail(deps.logger, 'a password-reset mail');
  }

  async request(email: string, origin: RequestOrigin): Promise<RequestOutcome> {
    const { ipLimiter, emailLimiter, audit } = this.deps;
    const address = email.trim();
    // Both budgets are counted on every request, so neither reveals anything about the other.
    const [byIp, byEmail] = await Promise.all([
      ipLimiter.consume(origin.ip),
      emailLimiter.consume(sha256Hex(address.toLowerCase())),
    ]);
    const refused = [byIp, byEmail].find((decision) => !decision.allowed);
    if (refused && !refused.allowed) {
      await audit.record({
        type: 'password_reset.rate_limited',
        ...origin,
        details: { retry_after_seconds: refused.retryAfterSeconds },
      });
      return { outcome: 'rate-limited', retryAfterSeconds: refused.retryAfterSeconds };
    }
    this.background.run(() => this.mailLink(address, origin));
    return { outcome: 'accepted' };
  }

  /** Whether a reset link would work now (the page with the new-password form). */
  check(token: string): Promise<LinkCheck> {
    return this.deps.links.check(token, 'reset_password');
  }

  async reset(token: string, password: string, origin: RequestOrigin): Promise<ResetOutcome> {
    const { links, accounts, sessions, audit, clock } = this.deps;
    const problem = passwordProblem(password);
    if (problem) {
      const checked = await this.check(token);
      return checked.ok
        ? { outcome: 'bad-password', message: problem }
        : { outcome: 'bad-link', problem: checked.problem };
    }
    const passwordHash = await hashPassword(password);
    return accounts.inTransaction(async (store, tx) => {
      const used = await links.use(token, 'reset_password', tx);
      if (!used.ok) return { outcome: 'bad-link' as const, problem: used.problem };
      const now = clock.now();
      await store.updatePasswordHash(used.userId, passwordHash, now);
      await store.markEmailVerified(used.userId, now);
      await links.retireOthers(used.userId, 'reset_password', tx);
      const signedOut = await sessions.endAllOf(used.userId, tx);
      await audit.record(
        {
          type: 'password_reset.completed',
          actorUserId: used.userId,
          ...origin,
          details: { sessions_ended: signedOut },
        },
        tx,
      );
      return { outcome: 'reset' as const, userId: used.userId };
    });
  }

  /** Resolves when the mails of earlier requests are sent (or failed): for shutdown and tests. */
  idle(): Promise<void> {
    return this.background.idle();
  }

  private async mailLink(address: string, origin: RequestOrigin): Promise<void> {
    const { accounts, links, urls, mailer, audit } = this.deps;
    const user = isPossibleIdentifier(address, MAX_EMAIL_LENGTH)
      ? await accounts.findUserByEmail(address)
      : undefined;
    await audit.record({
      type: 'password_reset.requested',
      actorUserId: user?.id ?? null,
      ...origin,
      details: { account_found: Boolean(user) },
    });
    if (!user) return;
    const token = await links.issue(user.id, 'reset_password', RESET_LINK_LIFETIME_MS);
    await mailer.send(passwordResetMail(user.email, urls.resetPassword(token)));
  }
}
