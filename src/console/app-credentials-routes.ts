import { Router } from 'express';
import { NotFoundError, ValidationError } from '../errors.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { originOf } from '../http/request-origin.js';
import { field, sentence } from './forms.js';
import type { ConsolePages } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/**
 * An app's Credentials tab: the client id, a new secret shown once, revealing the secret again
 * (with the account password; wrong passwords are counted per user) and rotating it after a
 * confirmation page (rotating breaks every running copy of the app at once).
 */
export function appCredentialsRouter(
  deps: ConsoleDependencies,
  guards: ConsoleGuards,
  pages: ConsolePages,
): Router {
  const { flash, revealLimiter, notices } = deps;
  const appService = deps.apps;
  const { form } = guards;
  const router = Router();

  router.get(CONSOLE_PATHS.app.credentials, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const app = await guards.ownedApp(res, current, req.params.clientId);
    if (!app) return;
    const secret = await flash.take(current.session.idHash, app.client_id);
    pages.credentials(res, current.viewer, { app, secret });
  });

  router.post(CONSOLE_PATHS.app.reveal, form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    const app = await guards.ownedApp(res, current, req.params.clientId);
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
        originOf(req),
      );
      await revealLimiter.reset(attemptKey);
      await flash.put(current.session.idHash, app.client_id, secret);
      notices.redirect(res, appPaths(app.client_id).credentials, 'secret-revealed');
    } catch (error) {
      if (error instanceof ValidationError && error.field === 'password') {
        await revealLimiter.consume(attemptKey);
        return again(401, 'The password is incorrect. Nothing was revealed.');
      }
      if (error instanceof ValidationError) return again(409, sentence(error.message));
      throw error;
    }
  });

  router.get(CONSOLE_PATHS.app.rotate, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const app = await guards.ownedApp(res, current, req.params.clientId);
    if (!app) return;
    pages.confirmRotation(res, current.viewer, app);
  });

  router.post(CONSOLE_PATHS.app.rotate, form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    // Only the confirmation page's form says yes; anything else is shown that page first.
    if (field(req, 'confirm') !== 'yes') {
      return res.redirect(303, appPaths(req.params.clientId).rotate);
    }
    try {
      const rotated = await appService.rotateSecret(
        current.session.userId,
        req.params.clientId,
        originOf(req),
      );
      await flash.put(current.session.idHash, rotated.app.client_id, rotated.clientSecret);
      notices.redirect(res, appPaths(rotated.app.client_id).credentials, 'secret-rotated');
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, current.viewer);
      if (error instanceof ValidationError) {
        const app = await guards.ownedApp(res, current, req.params.clientId);
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

  return router;
}
