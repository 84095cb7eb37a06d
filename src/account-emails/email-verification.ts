import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditLog, RequestOrigin } from '../audit/audit-log.js';
import type { Mailer } from '../mail/mailer.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import type { EmailLinks, EmailLinkUrls, LinkProblem } from './email-links.js';
import { verificationMail } from './messages.js';

export const VERIFICATION_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface EmailVerificationDependencies {
  links: EmailLinks;
  urls: EmailLinkUrls;
  accounts: AccountStore;
  mailer: Mailer;
  /** Counts "send the link again" per user. */
  resendLimiter: RateLimiter;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
}

export type ResendOutcome =
  { outcome: 'sent' | 'already-verified' } | { outcome: 'rate-limited'; retryAfterSeconds: number };

/**
 * Proof that a user reads the mail of their address: a single-use link valid for 24 hours.
 * Opening it sets the account's email verified, which `email_verified` in ID tokens and
 * userinfo reports.
 */
export class EmailVerification {
  constructor(private readonly deps: EmailVerificationDependencies) {}

  /**
   * Mails a new verification link. A mail that cannot be handed over is logged, not thrown: the
   * account exists either way and the console offers to send the link again.
   */
  async sendLink(user: { id: string; email: string }, origin: RequestOrigin): Promise<boolean> {
    const { links, urls, mailer, audit, logger } = this.deps;
    const token = await links.issue(user.id, 'verify_email', VERIFICATION_LINK_LIFETIME_MS);
    try {
      await mailer.send(verificationMail(user.email, urls.verifyEmail(token)));
    } catch (error) {
      logger.error({ err: error, userId: user.id }, 'could not send the verification mail');
      return false;
    }
    await audit.record({ type: 'email.verification_sent', actorUserId: user.id, ...origin });
    return true;
  }

  /** "Send the link again", at most the configured number of times per user in a window. */
  async resend(userId: string, origin: RequestOrigin): Promise<ResendOutcome> {
    const user = await this.deps.accounts.findUserById(userId);
    if (!user) throw new Error(`no user ${userId}`);
    if (user.email_verified) return { outcome: 'already-verified' };
    const counted = await this.deps.resendLimiter.consume(userId);
    if (!counted.allowed) {
      return { outcome: 'rate-limited', retryAfterSeconds: counted.retryAfterSeconds };
    }
    await this.sendLink(user, origin);
    return { outcome: 'sent' };
  }

  /** Opens a verification link: the address is verified, or the reason the link does not work. */
  async verify(
    token: string,
    origin: RequestOrigin,
  ): Promise<{ ok: true } | { ok: false; problem: LinkProblem }> {
    const { links, accounts, audit } = this.deps;
    return accounts.inTransaction(async (store, tx) => {
      const used = await links.use(token, 'verify_email', tx);
      if (!used.ok) return used;
      await store.markEmailVerified(used.userId, this.deps.clock.now());
      await audit.record({ type: 'email.verified', actorUserId: used.userId, ...origin }, tx);
      return { ok: true as const };
    });
  }
}
