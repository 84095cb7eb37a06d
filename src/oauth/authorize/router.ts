import express, { Router, type Request, type Response } from 'express';
import { CSRF_FIELD } from '../../sessions/csrf.js';
import type { BrowserSession } from '../../sessions/sessions.js';
import { OAuthError } from '../oauth-error.js';
import type { AuthorizationRequest } from './authorization-request.js';
import type { AuthorizeDependencies } from './dependencies.js';
import { htmlErrorPages } from './html-errors.js';
import { originOf } from '../../http/request-origin.js';
import { PUBLIC_DIR } from '../../http/views.js';
import { AuthorizePages, REQUEST_FIELD } from './pages.js';
import {
  AUTHORIZE_PATH,
  CONSENT_PATH,
  EMPLOYER_PATH,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
  authorizeUrl,
  codeResponseUri,
  errorResponseUri,
} from './redirects.js';

type RedirectStatus = 302 | 303;

const SIGN_IN_REQUIRED = 'Enter your email address and password.';
const WRONG_CREDENTIALS = 'Email or password is incorrect.';
const CHOOSE_EMPLOYER = 'Choose one of your employers, or continue without an employer.';

/**
 * GET /oauth/v2/authorize and its sign-in, consent and employer-selection pages.
 *
 * The pending authorization request lives in the pages themselves: each form carries the
 * client's query string in a hidden field, and every POST checks it again from scratch (client,
 * redirect_uri, scopes, PKCE, consent), so editing the field can only produce another request
 * that goes through every step on its own. Every successful POST answers 303.
 */
export function authorizeRouter(deps: AuthorizeDependencies): Router {
  const { sessions, csrf, flow, signIn } = deps;
  const pages = new AuthorizePages(deps.forgotPasswordHref);
  const iss = deps.config.authUrl;

  /** Checks the pending request; when it fails, answers for it and returns undefined. */
  async function pendingRequest(
    query: string,
    res: Response,
    status: RedirectStatus,
  ): Promise<AuthorizationRequest | undefined> {
    const checked = await flow.checkRequest(query);
    if (checked.outcome === 'valid') return checked.request;
    if (checked.outcome === 'unredirectable') {
      pages.error(res, 400, { title: 'This sign-in link is not valid', message: checked.message });
    } else {
      res.redirect(
        status,
        errorResponseUri(checked.redirectUri, checked.state, checked.error, iss),
      );
    }
    return undefined;
  }

  /** Shows the page the user is at for this request, or finishes it with a code. */
  async function proceed(
    req: Request,
    res: Response,
    request: AuthorizationRequest,
    session: BrowserSession | undefined,
    status: RedirectStatus,
  ): Promise<void> {
    if (!session) {
      pages.signIn(res, { request, csrfToken: csrf.forAnonymous(req, res) });
      return;
    }
    const next = await flow.nextStep(request, session);
    const csrfToken = csrf.forSession(session);
    if (next.step === 'consent') {
      const [user, owner] = await Promise.all([
        deps.accounts.findUser(session.userId),
        deps.accounts.findUser(request.app.owner_user_id),
      ]);
      const registeredBy = owner?.name || owner?.email || 'an unknown developer';
      pages.consent(res, { request, csrfToken, userEmail: user?.email ?? '', registeredBy });
    } else if (next.step === 'select-employer') {
      pages.selectEmployer(res, { request, csrfToken, employers: next.employers });
    } else {
      const code = await flow.issueCode(request, session);
      res.redirect(status, codeResponseUri(request, code, null, iss));
    }
  }

  /** A page form arrived without a live session: start the request again from the top. */
  async function restart(req: Request, res: Response): Promise<void> {
    const request = await pendingRequest(field(req, REQUEST_FIELD), res, 303);
    if (request) res.redirect(303, authorizeUrl(request.query));
  }

  function forbidden(res: Response): void {
    pages.error(res, 403, {
      title: 'This form has expired',
      message:
        'For your security the form was not accepted: it has expired or was not sent from this ' +
        'site. Nothing was changed. Go back, reload the page and try again.',
    });
  }

  const router = Router();
  router.use(
    '/assets',
    express.static(PUBLIC_DIR, { index: false, redirect: false, maxAge: '1h' }),
  );
  router.use(AUTHORIZE_PATH, (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  const form = express.urlencoded({
    extended: false,
    limit: deps.config.bodyLimitBytes,
    parameterLimit: 20,
  });

  router.get(AUTHORIZE_PATH, async (req, res) => {
    const request = await pendingRequest(rawQuery(req), res, 302);
    if (request) await proceed(req, res, request, await sessions.current(req), 302);
  });

  router.post(SIGN_IN_PATH, form, async (req, res) => {
    if (!csrf.verifyAnonymous(req, field(req, CSRF_FIELD))) return forbidden(res);
    const request = await pendingRequest(field(req, REQUEST_FIELD), res, 303);
    if (!request) return;
    const email = field(req, 'email');
    const password = field(req, 'password');
    const again = (status: number, error: string) =>
      pages.signIn(res, { status, request, csrfToken: csrf.forAnonymous(req, res), email, error });
    if (!email.trim() || !password) return again(400, SIGN_IN_REQUIRED);

    const result = await signIn.attempt({
      email,
      password,
      ...originOf(req),
      appId: request.app.id,
    });
    if (result.outcome === 'rate-limited') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return again(429, tooManyAttempts(result.retryAfterSeconds));
    }
    if (result.outcome === 'invalid') return again(401, WRONG_CREDENTIALS);
    await sessions.discard(req);
    sessions.setCookie(res, result.created);
    res.redirect(303, authorizeUrl(request.query));
  });

  router.post(CONSENT_PATH, form, async (req, res) => {
    const session = await sessions.current(req);
    if (!session) return restart(req, res);
    if (!csrf.verifySession(session, field(req, CSRF_FIELD))) return forbidden(res);
    const request = await pendingRequest(field(req, REQUEST_FIELD), res, 303);
    if (!request) return;
    const decision = field(req, 'decision');
    if (decision === 'allow') {
      await flow.grantConsent(request, session, originOf(req));
      res.redirect(303, authorizeUrl(request.query));
    } else if (decision === 'deny') {
      await flow.denyConsent(request, session, originOf(req));
      const denied = new OAuthError('access_denied', 'The user denied the request');
      res.redirect(303, errorResponseUri(request.redirectUri, request.state, denied, iss));
    } else {
      pages.error(res, 400, { title: 'No decision was made', message: 'Choose Allow or Deny.' });
    }
  });

  router.post(EMPLOYER_PATH, form, async (req, res) => {
    const session = await sessions.current(req);
    if (!session) return restart(req, res);
    if (!csrf.verifySession(session, field(req, CSRF_FIELD))) return forbidden(res);
    const request = await pendingRequest(field(req, REQUEST_FIELD), res, 303);
    if (!request) return;
    const next = await flow.nextStep(request, session);
    // Consent missing, or nothing left to choose: the authorization endpoint knows what is next.
    if (next.step !== 'select-employer') return res.redirect(303, authorizeUrl(request.query));
    const choice = await flow.employerChoice(session, optionalField(req, 'employer'));
    if (!choice) {
      const csrfToken = csrf.forSession(session);
      return pages.selectEmployer(res, {
        status: 400,
        request,
        csrfToken,
        employers: next.employers,
        error: CHOOSE_EMPLOYER,
      });
    }
    const code = await flow.issueCode(request, session, choice);
    res.redirect(303, codeResponseUri(request, code, choice.employerId, iss));
  });

  router.post(SIGN_OUT_PATH, form, async (req, res) => {
    const session = await sessions.current(req);
    if (!session) return restart(req, res);
    if (!csrf.verifySession(session, field(req, CSRF_FIELD))) return forbidden(res);
    const request = await pendingRequest(field(req, REQUEST_FIELD), res, 303);
    if (!request) return;
    await sessions.end(req, res);
    res.redirect(303, authorizeUrl(request.query));
  });

  router.use(AUTHORIZE_PATH, htmlErrorPages(pages));
  return router;
}

/** The query string exactly as the client sent it, without the `?`. */
function rawQuery(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? '' : req.originalUrl.slice(at + 1);
}

/** A text field of the submitted form; missing, repeated or non-text values read as undefined. */
function optionalField(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function field(req: Request, name: string): string {
  return optionalField(req, name) ?? '';
}

function tooManyAttempts(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds < 60
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-in attempts. For your security, try again in ${wait}.`;
}
