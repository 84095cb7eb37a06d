import express, { type Request, type Response } from 'express';
import type { AppRow } from '../db/rows.js';
import { CSRF_FIELD } from '../sessions/csrf.js';
import type { BrowserSession } from '../sessions/sessions.js';
import type { ConsoleDependencies } from './dependencies.js';
import { field } from './forms.js';
import type { ConsolePages, Viewer } from './pages.js';
import { CONSOLE_PATHS } from './paths.js';

export interface SignedIn {
  session: BrowserSession;
  viewer: Viewer;
}

/**
 * The checks every console handler runs before it calls a service: who is signed in (else off to
 * the sign-in page), whether a form carries its CSRF token (else 403), whether the user owns the
 * app in the path (else 404, like a missing app); plus the form body parser, and the 403 and 404
 * pages those checks answer with. Shared by every section's router; imports none of them.
 */
export class ConsoleGuards {
  /** Parses a console form (urlencoded, within the body limit, at most 20 fields). */
  readonly form: ReturnType<typeof express.urlencoded>;

  constructor(
    private readonly deps: Pick<
      ConsoleDependencies,
      'config' | 'accounts' | 'apps' | 'sessions' | 'csrf'
    >,
    private readonly pages: ConsolePages,
  ) {
    this.form = express.urlencoded({
      extended: false,
      limit: deps.config.bodyLimitBytes,
      parameterLimit: 20,
    });
  }

  /** The signed-in user, or undefined after sending the browser to the sign-in page. */
  async signedIn(req: Request, res: Response): Promise<SignedIn | undefined> {
    const current = await this.current(req);
    if (!current) {
      res.redirect(303, CONSOLE_PATHS.signIn);
      return undefined;
    }
    return current;
  }

  /** Like signedIn, for a form: also refuses (403) a missing or wrong CSRF token. */
  async signedInForm(req: Request, res: Response): Promise<SignedIn | undefined> {
    const current = await this.signedIn(req, res);
    if (!current) return undefined;
    if (!this.deps.csrf.verifySession(current.session, field(req, CSRF_FIELD))) {
      this.forbidden(res, current.viewer);
      return undefined;
    }
    return current;
  }

  /** Who is signed in, or null; sends nothing (for pages anyone may see). */
  async viewer(req: Request): Promise<Viewer | null> {
    return (await this.current(req))?.viewer ?? null;
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

  private async current(req: Request): Promise<SignedIn | undefined> {
    const session = await this.deps.sessions.current(req);
    const user = session && (await this.deps.accounts.findUser(session.userId));
    if (!session || !user) return undefined;
    return {
      session,
      viewer: {
        email: user.email,
        emailVerified: user.email_verified,
        csrfToken: this.deps.csrf.forSession(session),
      },
    };
  }
}
