import type { Accounts } from '../accounts/compose.js';
import { createRateLimiter, type SharedDependencies } from '../shared-dependencies.js';
import { CsrfTokens } from './csrf.js';
import { SessionStore } from './session-store.js';
import { BrowserSessions } from './sessions.js';
import { SignIn } from './sign-in.js';

/** Browser sessions, CSRF tokens and sign-in, shared by every page of the service. */
export interface Sessions {
  /** The browser sessions of the pages on AUTH_URL (authorization pages and console). */
  sessions: BrowserSessions;
  /** CSRF tokens of the forms on AUTH_URL. */
  csrf: CsrfTokens;
  /**
   * Email-and-password sign-in. The one instance serves the authorization pages and the
   * console, so both forms count failed attempts against one budget.
   */
  signIn: SignIn;
  /** CSRF tokens for forms served under another base URL (the interview pages' PUBLIC_URL). */
  csrfFor(baseUrl: string): CsrfTokens;
}

export function composeSessions(shared: SharedDependencies, accounts: Accounts): Sessions {
  const { config, clock } = shared;
  const csrfFor = (baseUrl: string) =>
    new CsrfTokens(shared.serverSecret, { secure: isHttps(baseUrl) });
  const sessionStore = new SessionStore(shared.db);
  const sessions = new BrowserSessions(sessionStore, clock, { secure: isHttps(config.authUrl) });
  const signIn = new SignIn({
    accounts: accounts.stores.accounts,
    sessions,
    sessionStore,
    limiter: createRateLimiter(shared, 'sign-in', config.rateLimits.signIn),
    audit: shared.audit,
  });
  return { sessions, csrf: csrfFor(config.authUrl), signIn, csrfFor };
}

/** Cookies of pages served over https carry the Secure flag. */
export function isHttps(url: string): boolean {
  return url.startsWith('https:');
}
