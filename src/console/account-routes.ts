import { Router, type Response } from 'express';
import { InvalidFields, type FieldProblem } from '../errors.js';
import { CSRF_FIELD } from '../sessions/csrf.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { originOf } from '../http/request-origin.js';
import { field, sentence, waitFor } from './forms.js';
import type { ConsolePages } from './pages.js';
import { CONSOLE_PATHS } from './paths.js';

const SIGN_IN_REQUIRED = 'Enter your email address and password.';
const WRONG_CREDENTIALS = 'Email or password is incorrect.';

/**
 * The console's account section: sign-up, sign-in and sign-out, on the same browser session as
 * the authorization pages (and the same budget of failed sign-ins). None of them tells whether
 * an address has an account: sign-up answers a new and a taken address alike (to sign-in, with
 * "check your email"), and the mail says the rest.
 */
export function accountRouter(
  deps: ConsoleDependencies,
  guards: ConsoleGuards,
  pages: ConsolePages,
): Router {
  const { config, sessions, csrf, signIn, signUpLimiter, signUp } = deps;
  const signUpOpen = config.consoleSignUp === 'open';
  const { form } = guards;

  function signUpClosed(res: Response): void {
    pages.message(res, 403, null, {
      title: 'Sign-up is closed',
      message:
        'New accounts cannot be created here on this server. Ask its operator for an account.',
    });
  }

  const router = Router();

  router.get(CONSOLE_PATHS.signIn, async (req, res) => {
    if (await sessions.current(req)) return res.redirect(303, CONSOLE_PATHS.dashboard);
    pages.signIn(res, { csrfToken: csrf.forAnonymous(req, res), signUpOpen });
  });

  router.post(CONSOLE_PATHS.signIn, form, async (req, res) => {
    if (!csrf.verifyAnonymous(req, field(req, CSRF_FIELD))) return guards.forbidden(res, null);
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
    const result = await signIn.attempt({ email, password, ...originOf(req) });
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
    if (!csrf.verifyAnonymous(req, field(req, CSRF_FIELD))) return guards.forbidden(res, null);
    const email = field(req, 'email');
    const name = field(req, 'name');
    const again = (status: number, problems: readonly FieldProblem[]) =>
      pages.signUp(res, {
        status,
        csrfToken: csrf.forAnonymous(req, res),
        email,
        name,
        problems,
      });
    const origin = originOf(req);
    const counted = await signUpLimiter.consume(origin.ip);
    if (!counted.allowed) {
      res.setHeader('Retry-After', String(counted.retryAfterSeconds));
      return again(429, [
        {
          field: 'email',
          message: `Too many sign-up attempts from your network. Try again in ${waitFor(counted.retryAfterSeconds)}.`,
        },
      ]);
    }
    try {
      await signUp.submit({ email, password: field(req, 'password'), name }, origin);
    } catch (error) {
      if (error instanceof InvalidFields) {
        return again(
          400,
          error.problems.map((problem) => ({ ...problem, message: sentence(problem.message) })),
        );
      }
      throw error;
    }
    // The same answer for an address that already has an account: its owner gets a mail.
    deps.notices.redirect(res, CONSOLE_PATHS.signIn, 'sign-up-mailed');
  });

  router.post(CONSOLE_PATHS.signOut, form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    await sessions.end(req, res);
    res.redirect(303, CONSOLE_PATHS.signIn);
  });

  return router;
}
