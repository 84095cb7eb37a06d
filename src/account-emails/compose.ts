import type { Accounts } from '../accounts/compose.js';
import type { MailCapability } from '../mail/compose.js';
import type { Sessions } from '../sessions/compose.js';
import { createRateLimiter, type SharedDependencies } from '../shared-dependencies.js';
import { EmailLinks, type EmailLinkUrls } from './email-links.js';
import { EmailTokenStore } from './email-token-store.js';
import { EmailVerification } from './email-verification.js';
import { PasswordReset } from './password-reset.js';
import { SignUp } from './sign-up.js';

/** The mailed single-use links (email verification, password reset) and sign-up, which mails. */
export interface AccountEmails {
  verification: EmailVerification;
  passwordReset: PasswordReset;
  signUp: SignUp;
}

/**
 * `urls` builds the absolute addresses of the pages the links open (the console's); the
 * composition root hands them in so that this capability never depends on the console.
 */
export function composeAccountEmails(
  shared: SharedDependencies,
  deps: { accounts: Accounts; sessions: Sessions; mail: MailCapability; urls: EmailLinkUrls },
): AccountEmails {
  const { clock, config, audit, logger } = shared;
  const links = new EmailLinks(new EmailTokenStore(shared.db), clock);
  const common = {
    links,
    urls: deps.urls,
    accounts: deps.accounts.stores.accounts,
    mailer: deps.mail.mailer,
    audit,
    clock,
    logger,
  };
  const limit = config.rateLimits.signIn;
  const verification = new EmailVerification({
    ...common,
    resendLimiter: createRateLimiter(shared, 'verification-resend', limit),
  });
  return {
    verification,
    signUp: new SignUp({
      ...common,
      users: deps.accounts.accounts,
      verification,
      noticeLimiter: createRateLimiter(shared, 'sign-up-existing-address', limit),
    }),
    passwordReset: new PasswordReset({
      ...common,
      sessions: deps.sessions.sessions,
      ipLimiter: createRateLimiter(shared, 'password-reset-ip', limit),
      emailLimiter: createRateLimiter(shared, 'password-reset-email', limit),
    }),
  };
}
