import type { Logger } from 'pino';
import type { AccountService } from '../accounts/account-service.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditLog, RequestOrigin } from '../audit/audit-log.js';
import { ConflictError } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { hashPassword } from '../security/passwords.js';
import { sha256Hex } from '../security/random.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import type { EmailLinkUrls } from './email-links.js';
import type { EmailVerification } from './email-verification.js';
import { existingAccountMail } from './messages.js';
import { BackgroundMail } from './background-mail.js';

export interface SignUpDependencies {
  /** Creates the account, by the accounts' rules. */
  users: AccountService;
  accounts: AccountStore;
  verification: EmailVerification;
  mailer: Mailer;
  urls: EmailLinkUrls;
  /** Mails to the owner of an address someone signs up with again, per address. */
  noticeLimiter: RateLimiter;
  audit: AuditLog;
  logger: Logger;
}

export interface SignUpForm {
  email: string;
  password: string;
  name: string;
}

/**
 * Self-service sign-up that does not tell whether an address has an account, as sign-in and
 * "Forgot password?" do not: a new address gets its account and the verification link; an
 * address that has one gets, instead, a mail to its owner saying how to sign in. The caller
 * answers both alike, and both cost the same work before the answer (the password is hashed
 * either way; the mails go after it).
 */
export class SignUp {
  private readonly background: BackgroundMail;

  constructor(private readonly deps: SignUpDependencies) {
    this.background = new BackgroundMail(deps.logger, 'a sign-up mail');
  }

  /** Throws InvalidFields when the form breaks a rule (the same rules for both). */
  async submit(form: SignUpForm, origin: RequestOrigin): Promise<void> {
    const { users, verification } = this.deps;
    try {
      const user = await users.createUser({ ...form, requireName: true });
      this.background.run(async () => {
        await verification.sendLink(user, origin);
      });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // The work a new account costs, so that the time of the answer does not tell either.
      await hashPassword(form.password);
      this.background.run(() => this.tellOwner(form.email.trim(), origin));
    }
  }

  /** Resolves when the mails of earlier sign-ups are sent (or failed): for shutdown and tests. */
  idle(): Promise<void> {
    return this.background.idle();
  }

  private async tellOwner(address: string, origin: RequestOrigin): Promise<void> {
    const { accounts, mailer, urls, noticeLimiter, audit } = this.deps;
    const owner = await accounts.findUserByEmail(address);
    if (!owner) return;
    // Someone repeating sign-ups with an address must not fill its owner's mailbox.
    const counted = await noticeLimiter.consume(sha256Hex(owner.email.toLowerCase()));
    await audit.record({
      type: 'sign_up.existing_address',
      actorUserId: owner.id,
      ...origin,
      details: { owner_mailed: counted.allowed },
    });
    if (!counted.allowed) return;
    await mailer.send(
      existingAccountMail(owner.email, {
        signIn: urls.signIn,
        forgotPassword: urls.forgotPassword,
      }),
    );
  }
}
