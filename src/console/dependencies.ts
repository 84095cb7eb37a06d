import type { AccountService } from '../accounts/account-service.js';
import type { ApiAccessService } from '../accounts/api-access-service.js';
import type { AppService } from '../accounts/app-service.js';
import type { JobSync } from '../job-sync/compose.js';
import type { EmailVerification } from '../account-emails/email-verification.js';
import type { PasswordReset } from '../account-emails/password-reset.js';
import type { SignUp } from '../account-emails/sign-up.js';
import type { OutboxEntry } from '../mail/outbox-mailer.js';
import type { Clock } from '../clock.js';
import type { AppCalendarSettings } from '../calendar-mail/app-calendar-settings.js';
import type { CalendarMailSettings, Config } from '../config.js';
import type { BudgetSettings } from '../cost-budgets/budget-settings.js';
import type { GrantChoice } from '../oauth/grants/registry.js';
import type { ExplorerTokens } from '../oauth/tokens/explorer-tokens.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import type { CsrfTokens } from '../sessions/csrf.js';
import type { BrowserSessions } from '../sessions/sessions.js';
import type { SignIn } from '../sessions/sign-in.js';
import type { WebhookEndpointService } from '../webhooks/endpoint-service.js';
import type { DispositionSync } from '../disposition-sync/disposition-sync.js';
import type { ConsoleNotices } from './notices.js';
import type { SecretFlash } from './secret-flash.js';

/** What the console is given by its compose module: finished services, never the database. */
export interface ConsoleDependencies {
  config: Config;
  clock: Clock;
  accounts: AccountService;
  apps: AppService;
  /** Which APIs behind /graphql each app may use: the Overview's switches. */
  apiAccess: ApiAccessService;
  /** The browser sessions the authorization pages share. */
  sessions: BrowserSessions;
  csrf: CsrfTokens;
  /** Sign-in shared with the authorization pages: one budget of failed attempts for both. */
  signIn: SignIn;
  /** Carries a new client secret from the POST that made it to its one display. */
  flash: SecretFlash;
  /** The one-time success message on the page a change redirects to. */
  notices: ConsoleNotices;
  /** Counts wrong passwords on the reveal form, per user. */
  revealLimiter: RateLimiter;
  /** Counts sign-ups per client IP. */
  signUpLimiter: RateLimiter;
  /**
   * Drops cached token verifications, so a deleted app's tokens stop working at once in every
   * process of the deployment.
   */
  forgetVerifiedTokens: () => Promise<void>;
  /** Creates accounts (or mails the owner of a taken address), the same answer either way. */
  signUp: SignUp;
  /** Verification links: mailed at sign-up and again on request, opened from the mail. */
  verification: EmailVerification;
  /** "Forgot password?" and the reset links. */
  passwordReset: PasswordReset;
  /** The development outbox, only when SMTP_URL is unset outside production. */
  outbox?: { list(): readonly OutboxEntry[] };
  /** The token endpoint's grants (the grant registry's choices), offered on the app forms. */
  grantChoices: readonly GrantChoice[];
  /** Issues the API explorer's short-lived employer tokens. */
  explorerTokens: ExplorerTokens;
  /** The Webhooks tab's endpoints and deliveries (src/webhooks/compose.ts). */
  webhooks: WebhookEndpointService;
  /** The API budget tab's GraphQL cost budget of each app (src/cost-budgets/). */
  budgets: BudgetSettings;
  /** The Job postings tab: what the app posted through Job Sync, read only. */
  postings: Pick<JobSync, 'reader' | 'now'>;
  /** The Dispositions tab: what the app sent through Disposition Sync, read only. */
  dispositions: Pick<DispositionSync, 'pageOfApp'>;
  /** The Calendar mails tab: each app's switches (src/calendar-mail/compose.ts). */
  calendarMail: {
    settings: AppCalendarSettings;
    /** CALENDAR_MAILS and CALENDAR_REMINDERS, which the tab describes. */
    config: CalendarMailSettings;
  };
}
