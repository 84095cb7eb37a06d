import { Router, type RequestHandler, type Response } from 'express';
import type { AccountService } from '../accounts/account-service.js';
import type { AppService } from '../accounts/app-service.js';
import type { Config } from '../config.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { CSRF_FIELD, type CsrfTokens } from '../sessions/csrf.js';
import type { BrowserSessions } from '../sessions/sessions.js';
import type { SignIn } from '../sessions/sign-in.js';
import { clientIp, field, redirectUriFields, sentence, waitFor } from './forms.js';
import { consoleErrorPages } from './html-errors.js';
import { ConsolePages, type NewAppValues } from './pages.js';
import { CONSOLE_PATHS, CONSOLE_PREFIX, appPaths } from './paths.js';
import { ConsoleKit } from './console-kit.js';
import { chosenGrantTypes, registerAppDetailsRoutes } from './app-details-routes.js';
import { GRANT_TYPES } from '../accounts/grant-types.js';
import { registerEmployerRoutes } from './employer-routes.js';
import type { SecretFlash } from './secret-flash.js';

/** What the console is given by its compose module: finished services, never the database. */
export interface ConsoleDependencies {
  config: Config;
  accounts: AccountService;
  apps: AppService;
  /** The browser sessions the authorization pages share. */
  sessions: BrowserSessions;
  csrf: CsrfTokens;
  /** Sign-in shared with the authorization pages: one budget of failed attempts for both. */
  signIn: SignIn;
  /** Carries a new client secret from the POST that made it to its one display. */
  flash: SecretFlash;
  /** Counts wrong passwords on the reveal form, per user. */
  revealLimiter: RateLimiter;
  /** Counts sign-ups per client IP. */
  signUpLimiter: RateLimiter;
  /** Drops cached token verifications, so a deleted app's tokens stop working here at once. */
  forgetVerifiedTokens: () => void;
}

const SIGN_IN_REQUIRED = 'Enter your email address and password.';
const WRONG_CREDENTIALS = 'Email or password is incorrect.';
const EMAIL_TAKEN =
  'An account with this email already exists. Sign in instead, or use another email.';
const NAME_REQUIRED = 'Enter your name.';
const REDIRECT_REQUIRED = 'Enter at least one redirect URL.';
const CLIENT_TYPE_REQUIRED = 'Choose whether the app is confidential or public.';

/**
 * The partner console under /console: sign-up, sign-in and sign-out on the same browser session
 * as the authorization pages, the list of the user's apps, app registration and the Credentials
 * tab. Handlers check the session and CSRF token, call a service and render; every POST answers
 * 303. Another user's app is indistinguishable from a missing one.
 */
export function consoleRouter(deps: ConsoleDependencies): Router {
  const { config, sessions, csrf, signIn, flash, revealLimiter, signUpLimiter } = deps;
  const accountService = deps.accounts;
  const appService = deps.apps;
  const signUpOpen = config.consoleSignUp === 'open';
  const kit = new ConsoleKit(deps, sessions, csrf, new ConsolePages());
  const { pages, form } = kit;
  const signedIn = kit.signedIn.bind(kit);
  const signedInForm = kit.signedInForm.bind(kit);
  const notFound = kit.notFound.bind(kit);
  const forbidden = kit.forbidden.bind(kit);
  const ownedApp = kit.ownedApp.bind(kit);

  function signUpClosed(res: Response): void {
    pages.message(res, 403, null, {
      title: 'Sign-up is closed',
      message:
        'New accounts cannot be created here on this server. Ask its operator for an account.',
    });
  }

  const router = Router();
  router.use(CONSOLE_PREFIX, noStore);

  router.get(CONSOLE_PATHS.dashboard, async (req, res) => {
    const current = await signedIn(req, res);
    if (!current) return;
    const apps = await appService.listApps({ ownerUserId: current.session.userId });
    pages.dashboard(res, current.viewer, apps);
  });

  router.get(CONSOLE_PATHS.signIn, async (req, res) => {
    if (await sessions.current(req)) return res.redirect(303, CONSOLE_PATHS.dashboard);
    pages.signIn(res, { csrfToken: csrf.forAnonymous(req, res), signUpOpen });
  });

  router.post(CONSOLE_PATHS.signIn, form, async (req, res) => {
    if (!csrf.verifyAnonymous(req, field(req, CSRF_FIELD))) return forbidden(res, null);
    const email = field(req, 'email');
    const password = field(req, 'password');
    const again = (status: number, error: string) =>
      pages.signIn(res, {
        status,
        csrfToken: csrf.forAnonymous(req, res),
        signUpOpen,
        email,
        error,
      });
    if (!email.trim() || !password) return again(400, SIGN_IN_REQUIRED);
    const result = await signIn.attempt({ email, password, ip: clientIp(req) });
    if (result.outcome === 'rate-limited') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return again(
        429,
        `Too many failed sign-in attempts. For your security, try again in ${waitFor(result.retryAfterSeconds)}.`,
      );
    }
    if (result.outcome === 'invalid') return again(401, WRONG_CREDENTIALS);
    await sessions.discard(req);
    sessions.setCookie(res, result.created);
    res.redirect(303, CONSOLE_PATHS.dashboard);
  });

  router.get(CONSOLE_PATHS.signUp, async (req, res) => {
    if (!signUpOpen) return signUpClosed(res);
    if (await sessions.current(req)) return res.redirect(303, CONSOLE_PATHS.dashboard);
    pages.signUp(res, { csrfToken: csrf.forAnonymous(req, res) });
  });

  router.post(CONSOLE_PATHS.signUp, form, async (req, res) => {
    if (!signUpOpen) return signUpClosed(res);
    if (!csrf.verifyAnonymous(req, field(req, CSRF_FIELD))) return forbidden(res, null);
    const email = field(req, 'email');
    const name = field(req, 'name');
    const again = (status: number, message: string, problemField?: string) =>
      pages.signUp(res, {
        status,
        csrfToken: csrf.forAnonymous(req, res),
        email,
        name,
        problem: { message, field: problemField },
      });
    if (!name.trim()) return again(400, NAME_REQUIRED, 'name');
    const ip = clientIp(req);
    const counted = await signUpLimiter.consume(ip);
    if (!counted.allowed) {
      res.setHeader('Retry-After', String(counted.retryAfterSeconds));
      return again(
        429,
        `Too many sign-up attempts from your network. Try again in ${waitFor(counted.retryAfterSeconds)}.`,
      );
    }
    let userId: string;
    try {
      userId = (await accountService.createUser({ email, password: field(req, 'password'), name }))
        .id;
    } catch (error) {
      if (error instanceof ConflictError) return again(409, EMAIL_TAKEN, 'email');
      if (error instanceof ValidationError) return again(400, sentence(error.message), error.field);
      throw error;
    }
    const created = await signIn.startSession(userId, ip);
    await sessions.discard(req);
    sessions.setCookie(res, created);
    res.redirect(303, CONSOLE_PATHS.dashboard);
  });

  router.post(CONSOLE_PATHS.signOut, form, async (req, res) => {
    const current = await signedInForm(req, res);
    if (!current) return;
    await sessions.end(req, res);
    res.redirect(303, CONSOLE_PATHS.signIn);
  });

  router.get(CONSOLE_PATHS.newApp, async (req, res) => {
    const current = await signedIn(req, res);
    if (!current) return;
    pages.newApp(res, current.viewer, {
      values: {
        name: '',
        clientType: 'confidential',
        redirectUris: [],
        description: '',
        grantTypes: GRANT_TYPES,
      },
    });
  });

  router.post(CONSOLE_PATHS.newApp, form, async (req, res) => {
    const current = await signedInForm(req, res);
    if (!current) return;
    const clientType = field(req, 'client_type');
    const values: NewAppValues = {
      name: field(req, 'name'),
      clientType: clientType === 'public' ? 'public' : 'confidential',
      redirectUris: redirectUriFields(req),
      description: field(req, 'description'),
      grantTypes: chosenGrantTypes(req) ?? GRANT_TYPES,
    };
    const again = (message: string, problemField: string) =>
      pages.newApp(res, current.viewer, {
        status: 400,
        values,
        problem: { message, field: problemField },
      });
    if (clientType !== 'confidential' && clientType !== 'public') {
      return again(CLIENT_TYPE_REQUIRED, 'client_type');
    }
    if (!values.redirectUris.length) return again(REDIRECT_REQUIRED, 'redirect_uris');
    const owner = await accountService.findUser(current.session.userId);
    if (!owner) return res.redirect(303, CONSOLE_PATHS.signIn);
    try {
      const created = await appService.createApp({
        ownerEmail: owner.email,
        name: values.name,
        redirectUris: values.redirectUris,
        public: values.clientType === 'public',
        description: values.description,
        grantTypes: values.grantTypes,
      });
      if (created.clientSecret) {
        await flash.put(current.session.idHash, created.app.client_id, created.clientSecret);
      }
      res.redirect(303, appPaths(created.app.client_id).credentials);
    } catch (error) {
      if (error instanceof ValidationError) {
        return again(sentence(error.message), error.field ?? 'name');
      }
      throw error;
    }
  });

  router.get(CONSOLE_PATHS.credentials, async (req, res) => {
    const current = await signedIn(req, res);
    if (!current) return;
    const app = await ownedApp(res, current, req.params.clientId);
    if (!app) return;
    const secret = await flash.take(current.session.idHash, app.client_id);
    pages.credentials(res, current.viewer, { app, secret });
  });

  router.post(CONSOLE_PATHS.reveal, form, async (req, res) => {
    const current = await signedInForm(req, res);
    if (!current) return;
    const app = await ownedApp(res, current, req.params.clientId);
    if (!app) return;
    const again = (status: number, error: string) =>
      pages.credentials(res, current.viewer, { app, secret: undefined, status, error });
    // Wrong passwords count per user, so the reveal form cannot be used to guess one.
    const attemptKey = current.session.userId;
    const blocked = await revealLimiter.isBlocked(attemptKey);
    if (!blocked.allowed) {
      res.set('Retry-After', String(blocked.retryAfterSeconds));
      return again(
        429,
        `Too many wrong passwords. Try again in ${blocked.retryAfterSeconds} seconds.`,
      );
    }
    try {
      const secret = await appService.revealSecret(
        current.session.userId,
        app.client_id,
        field(req, 'password'),
        { ip: clientIp(req) },
      );
      await revealLimiter.reset(attemptKey);
      await flash.put(current.session.idHash, app.client_id, secret);
      res.redirect(303, appPaths(app.client_id).credentials);
    } catch (error) {
      if (error instanceof ValidationError && error.field === 'password') {
        await revealLimiter.consume(attemptKey);
        return again(401, 'The password is incorrect. Nothing was revealed.');
      }
      if (error instanceof ValidationError) return again(409, sentence(error.message));
      throw error;
    }
  });

  router.post(CONSOLE_PATHS.rotate, form, async (req, res) => {
    const current = await signedInForm(req, res);
    if (!current) return;
    try {
      const rotated = await appService.rotateSecret(current.session.userId, req.params.clientId, {
        ip: clientIp(req),
      });
      await flash.put(current.session.idHash, rotated.app.client_id, rotated.clientSecret);
      res.redirect(303, appPaths(rotated.app.client_id).credentials);
    } catch (error) {
      if (error instanceof NotFoundError) return notFound(res, current.viewer);
      if (error instanceof ValidationError) {
        const app = await ownedApp(res, current, req.params.clientId);
        if (!app) return;
        return pages.credentials(res, current.viewer, {
          app,
          secret: undefined,
          status: 400,
          error: sentence(error.message),
        });
      }
      throw error;
    }
  });

  // Further console sections register their routes here, before the 404 fallthrough.
  registerAppDetailsRoutes(router, kit);
  registerEmployerRoutes(router, kit);

  router.use(CONSOLE_PREFIX, async (req, res) => {
    const session = await sessions.current(req);
    const user = session && (await accountService.findUser(session.userId));
    notFound(
      res,
      session && user ? { email: user.email, csrfToken: csrf.forSession(session) } : null,
    );
  });
  router.use(CONSOLE_PREFIX, consoleErrorPages(pages));
  return router;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
