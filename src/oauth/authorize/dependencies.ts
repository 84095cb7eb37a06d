import type { AccountService } from '../../accounts/account-service.js';
import type { Config } from '../../config.js';
import type { CsrfTokens } from '../../sessions/csrf.js';
import type { BrowserSessions } from '../../sessions/sessions.js';
import type { SignIn } from '../../sessions/sign-in.js';
import type { AuthorizationFlow } from './authorization-flow.js';

/** What the authorization endpoint and its pages are given by the oauth compose module. */
export interface AuthorizeDependencies {
  config: Config;
  /** The browser sessions the console shares. */
  sessions: BrowserSessions;
  csrf: CsrfTokens;
  /** Sign-in shared with the console: one budget of failed attempts for both forms. */
  signIn: SignIn;
  /** The rules between sign-in and the code: request checks, consent, employer choice. */
  flow: AuthorizationFlow;
  accounts: AccountService;
  /** The sign-in page's "Forgot password?" link (the console's form); absent: no link. */
  forgotPasswordHref?: string;
}
