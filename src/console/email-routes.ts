import { Router } from 'express';
import { isLoopbackClient } from '../http/loopback-client.js';
import { OUTBOX_SIZE } from '../mail/outbox-mailer.js';
import { CSRF_FIELD } from '../sessions/csrf.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import type { EmailPages } from './email-pages.js';
import { originOf } from '../http/request-origin.js';
import { field, sentence, waitFor } from './forms.js';
import { CONSOLE_PATHS } from './paths.js';

const EMAIL_REQUIRED = 'Enter the email address of your account.';

/**
 * The console's mailed links: opening a verification link, sending it again, "Forgot
 * password?" and the page the reset link opens.
 */
export function emailRouter(
  deps: ConsoleDependencies,
  guards: ConsoleGuards,
  pages: EmailPages,
): Router {
  const { sessions, csrf, verification, passwordReset } = deps;
  const { form } = guards;
  const router = Router();

  router.get(CONSOLE_PATHS.verifyEmail, async (req, res) => {
    const verified = await verification.verify(req.params.token ?? '', originOf(req));
    const viewer = await guards.viewer(req);
    if (!verified.ok) return pages.linkProblem(res, viewer, verified.problem);
    pages.verified(res, viewer);
  });

  router.post(CONSOLE_PATHS.resendVerification, form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    const sent = await verification.resend(current.session.userId, originOf(req));
    if (sent.outcome === 'rate-limited') {
      res.setHeader('Retry-After', String(sent.retryAfterSeconds));
      return pages.resendLimited(res, current.viewer, waitFor(sent.retryAfterSeconds));
    }
    res.redirect(
      303,
      sent.outcome === 'sent' ? CONSOLE_PATHS.verificationSent : CONSOLE_PATHS.dashboard,
    );
  });

  router.get(CONSOLE_PATHS.verificationSent, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (current) pages.verificationSent(res, current.viewer);
  });

  router.get(CONSOLE_PATHS.forgotPassword, (req, res) => {
    pages.forgotPassword(res, { csrfToken: csrf.forAnonymous(req, res) });
  });

  router.post(CONSOLE_PATHS.forgotPassword, form, async (req, res) => {
    if (!csrf.verifyAnonymous(req, field(req, CSRF_FIELD))) return guards.forbidden(res, null);
    const email = field(req, 'email');
    const again = (status: number, error: string) =>
      pages.forgotPassword(res, { status, csrfToken: csrf.forAnonymous(req, res), email, error });
    if (!email.trim()) return again(400, EMAIL_REQUIRED);
    const requested = await passwordReset.request(email, originOf(req));
    if (requested.outcome === 'rate-limited') {
      res.setHeader('Retry-After', String(requested.retryAfterSeconds));
      return again(
        429,
        `Too many requests for a reset link. Try again in ${waitFor(requested.retryAfterSeconds)}.`,
      );
    }
    pages.resetLinkSent(res);
  });

  router.get(CONSOLE_PATHS.resetPassword, async (req, res) => {
    const token = req.params.token ?? '';
    const checked = await passwordReset.check(token);
    if (!checked.ok) return pages.linkProblem(res, null, checked.problem);
    pages.resetPassword(res, { token, csrfToken: csrf.forAnonymous(req, res) });
  });

  router.post(CONSOLE_PATHS.resetPassword, form, async (req, res) => {
    if (!csrf.verifyAnonymous(req, field(req, CSRF_FIELD))) return guards.forbidden(res, null);
    const token = req.params.token ?? '';
    const result = await passwordReset.reset(token, field(req, 'password'), originOf(req));
    if (result.outcome === 'bad-link') return pages.linkProblem(res, null, result.problem);
    if (result.outcome === 'bad-password') {
      return pages.resetPassword(res, {
        status: 400,
        token,
        csrfToken: csrf.forAnonymous(req, res),
        error: sentence(result.message),
      });
    }
    // This browser's session (if any) ended with the others; its cookie goes too.
    await sessions.end(req, res);
    res.redirect(303, CONSOLE_PATHS.passwordChanged);
  });

  router.get(CONSOLE_PATHS.passwordChanged, (_req, res) => {
    pages.passwordChanged(res);
  });

  router.get(CONSOLE_PATHS.devOutbox, async (req, res, next) => {
    // Without a development outbox (SMTP_URL set, or production) the page does not exist; it
    // lists live password-reset links, so it exists only for a browser on this machine.
    if (!deps.outbox || !isLoopbackClient(req)) return next();
    pages.outbox(res, await guards.viewer(req), deps.outbox.list(), OUTBOX_SIZE);
  });

  return router;
}
