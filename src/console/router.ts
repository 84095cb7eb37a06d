import { Router, type RequestHandler } from 'express';
import { accountRouter } from './account-routes.js';
import { appCredentialsRouter } from './app-credentials-routes.js';
import { appDetailsRouter } from './app-details-routes.js';
import { appRegistrationRouter } from './app-registration-routes.js';
import { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { EmailPages } from './email-pages.js';
import { emailRouter } from './email-routes.js';
import { employersRouter } from './employer-routes.js';
import { explorerRouter } from './explorer-routes.js';
import { consoleErrorPages } from './html-errors.js';
import { ConsolePages } from './pages.js';
import { CONSOLE_PREFIX } from './paths.js';
import { calendarMailRouter } from './calendar-mail-routes.js';
import { webhookRouter } from './webhook-routes.js';
import { dispositionRouter } from './disposition-routes.js';
import { postingRouter } from './posting-routes.js';
import { appBudgetRouter } from './app-budget-routes.js';

/**
 * The partner console under /console, one router per section: account (sign-up, sign-in and
 * sign-out on the same browser session as the authorization pages), the dashboard and app
 * registration, an app's Credentials tab, its other tabs and deletion, and employers. Handlers
 * check the session and CSRF token (ConsoleGuards), call a service and render; every POST answers
 * 303. Another user's app is indistinguishable from a missing one. Anything else under /console
 * is a 404 page, and errors are answered with a console page.
 */
export function consoleRouter(deps: ConsoleDependencies): Router {
  const pages = new ConsolePages(deps.grantChoices);
  const guards = new ConsoleGuards(deps, pages);

  const router = Router();
  router.use(CONSOLE_PREFIX, noStore, deps.notices.take);
  // Registration first: /console/apps/new is not an app's Overview tab.
  router.use(accountRouter(deps, guards, pages));
  router.use(emailRouter(deps, guards, new EmailPages(pages)));
  router.use(appRegistrationRouter(deps, guards, pages));
  router.use(appCredentialsRouter(deps, guards, pages));
  router.use(appDetailsRouter(deps, guards));
  router.use(webhookRouter(deps, guards));
  router.use(postingRouter(deps, guards));
  router.use(dispositionRouter(deps, guards));
  router.use(appBudgetRouter(deps, guards));
  router.use(calendarMailRouter(deps, guards));
  router.use(employersRouter(deps, guards, pages));
  router.use(explorerRouter(deps, guards));

  router.use(CONSOLE_PREFIX, async (req, res) => {
    guards.notFound(res, await guards.viewer(req));
  });
  router.use(CONSOLE_PREFIX, consoleErrorPages(pages));
  return router;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
