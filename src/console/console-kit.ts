import express, { type Request, type Response } from 'express';
import type { AppRow } from '../db/rows.js';
import { CSRF_FIELD, type CsrfTokens } from '../sessions/csrf.js';
import type { BrowserSession, BrowserSessions } from '../sessions/sessions.js';
import { field } from './forms.js';
import type { ConsolePages, Viewer } from './pages.js';
import { CONSOLE_PATHS } from './paths.js';
import type { ConsoleDependencies } from './router.js';

export interface SignedIn {
  session: BrowserSession;
  viewer: Viewer;
}

/**
 * What every console section needs: the dependencies, the session and CSRF checks, the pages,
 * the form parser, and the guards that keep one user out of another's apps.
 */
export class ConsoleKit {
  readonly form: ReturnType<typeof express.urlencoded>;

  constructor(
    readonly deps: ConsoleDependencies,
    readonly sessions: BrowserSessions,
    readonly csrf: CsrfTokens,
    readonly pages: ConsolePages,
  ) {
    this.form = express.urlencoded({
      extended: false,
      limit: deps.config.bodyLimitBytes,
      parameterLimit: 20,
    });
  }

  /** The signed-in user, or undefined after sending the browser to the sign-in page. */
  async signedIn(req: Request, res: Response): Promise<SignedIn | undefined> {
    const session = await this.sessions.current(req);
    const user = session && (await this.deps.accounts.findUser(session.userId));
    if (!session || !user) {
      res.redirect(303, CONSOLE_PATHS.signIn);
      return undefined;
    }
    return { session, viewer: { email: user.email, csrfToken: this.csrf.forSession(session) } };
  }

  /** Like signedIn, for a form: also refuses (403) a missing or wrong CSRF token. */
  async signedInForm(req: Request, res: Response): Promise<SignedIn | undefined> {
    const current = await this.signedIn(req, res);
    if (!current) return undefined;
    if (!this.csrf.verifySession(current.session, field(req, CSRF_FIELD))) {
      this.forbidden(res, current.viewer);
      return undefined;
    }
    return current;
  }

  forbidden(res: Response, viewer: Viewer | null): void {
    this.pages.message(res, 403, viewer, {
      title: 'This form has expired',
      message:
        'For your security the form was not accepted: it has expired or was not sent from this ' +
        'site. Nothing was changed. Go back, reload the page and try again.',
    });
  }

  notFound(res: Response, viewer: Viewer | null): void {
    this.pages.message(res, 404, viewer, {
      title: 'Page not found',
      message: 'There is no such page, or it belongs to another account.',
    });
  }

  /**
   * The app with this client id when the user owns it; otherwise answers 404 (a client id no app
   * can have is not looked up).
   */
  async ownedApp(res: Response, current: SignedIn, clientId: string): Promise<AppRow | undefined> {
    const app = await this.deps.apps.findOwnedApp(current.session.userId, clientId);
    if (app) return app;
    this.notFound(res, current.viewer);
    return undefined;
  }
}
