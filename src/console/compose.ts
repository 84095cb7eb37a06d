import type { Router } from 'express';
import type { AccountEmails } from '../account-emails/compose.js';
import type { CalendarMail } from '../calendar-mail/compose.js';
import type { Accounts } from '../accounts/compose.js';
import type { MailCapability } from '../mail/compose.js';
import type { OAuth } from '../oauth/compose.js';
import { isHttps, type Sessions } from '../sessions/compose.js';
import { createRateLimiter, type SharedDependencies } from '../shared-dependencies.js';
import type { Webhooks } from '../webhooks/compose.js';
import type { CostBudgets } from '../cost-budgets/compose.js';
import type { DispositionSyncCapability } from '../disposition-sync/compose.js';
import type { JobSync } from '../job-sync/compose.js';
import { ConsoleNotices } from './notices.js';
import { consoleRouter } from './router.js';
import { SecretFlash } from './secret-flash.js';
import { SecretRevealStore } from './secret-reveal-store.js';

/** The partner console under /console, on AUTH_URL. */
export interface Console {
  router(): Router;
}

export function composeConsole(
  shared: SharedDependencies,
  deps: {
    accounts: Accounts;
    sessions: Sessions;
    oauth: OAuth;
    accountEmails: AccountEmails;
    mail: MailCapability;
    webhooks: Pick<Webhooks, 'endpoints'>;
    costBudgets: Pick<CostBudgets, 'settings'>;
    calendarMail: Pick<CalendarMail, 'appSettings'>;
    dispositionSync: DispositionSyncCapability;
    jobSync: Pick<JobSync, 'reader' | 'now'>;
  },
): Console {
  const { config } = shared;
  const { accounts, sessions, oauth, accountEmails } = deps;
  const dependencies = {
    config,
    clock: shared.clock,
    accounts: accounts.accounts,
    apps: accounts.apps,
    apiAccess: accounts.apiAccess,
    sessions: sessions.sessions,
    csrf: sessions.csrf,
    signIn: sessions.signIn,
    flash: new SecretFlash(
      new SecretRevealStore(shared.db),
      shared.boxes.secretReveals,
      shared.clock,
    ),
    notices: new ConsoleNotices({ secure: isHttps(config.authUrl) }),
    revealLimiter: createRateLimiter(shared, 'secret-reveal', config.rateLimits.signIn),
    signUpLimiter: createRateLimiter(shared, 'console-sign-up', config.rateLimits.signIn),
    signUp: accountEmails.signUp,
    verification: accountEmails.verification,
    passwordReset: accountEmails.passwordReset,
    outbox: deps.mail.outbox,
    forgetVerifiedTokens: () => oauth.verifier.forgetAll(),
    grantChoices: oauth.grants.choices(),
    explorerTokens: oauth.explorerTokens,
    webhooks: deps.webhooks.endpoints,
    budgets: deps.costBudgets.settings,
    dispositions: deps.dispositionSync.dispositions,
    postings: deps.jobSync,
    calendarMail: { settings: deps.calendarMail.appSettings, config: config.calendarMail },
  };
  return { router: () => consoleRouter(dependencies) };
}
