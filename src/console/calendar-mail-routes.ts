import { Router, type Request, type Response } from 'express';
import { originOf } from '../http/request-origin.js';
import { appTabs } from './app-tabs.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { renderConsolePage } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/**
 * An app's Calendar mails tab: whether the service mails its interviews' participants the
 * invitations, updates and cancellations (with the calendar file), and the reminders. A partner
 * whose ATS sends its own invitations turns them off here.
 */
export function calendarMailRouter(deps: ConsoleDependencies, guards: ConsoleGuards): Router {
  const { settings, config } = deps.calendarMail;
  const router = Router();

  async function owned(req: Request, res: Response, isForm: boolean) {
    const current = isForm ? await guards.signedInForm(req, res) : await guards.signedIn(req, res);
    if (!current) return undefined;
    const app = await guards.ownedApp(res, current, String(req.params.clientId));
    return app && { current, app };
  }

  router.get(CONSOLE_PATHS.app.calendarMails, async (req, res) => {
    const found = await owned(req, res, false);
    if (!found) return;
    const { app, current } = found;
    const switches = await settings.of(app.id);
    renderConsolePage(res, 200, 'console-app-calendar-mails.njk', current.viewer, {
      dashboard_href: CONSOLE_PATHS.dashboard,
      app_name: app.name,
      tabs: appTabs(app.client_id, 'calendar-mails'),
      action: appPaths(app.client_id).calendarMails,
      invitations: switches.invitations,
      reminders: switches.reminders,
      deployment_off: !config.enabled,
      reminder_offsets: config.remindersBeforeMs.map(offsetText).join(' and '),
    });
  });

  router.post(CONSOLE_PATHS.app.calendarMails, guards.form, async (req, res) => {
    const found = await owned(req, res, true);
    if (!found) return;
    const { app, current } = found;
    // An unticked checkbox is absent from the form.
    const ticked = (name: string) => (req.body as Record<string, unknown>)[name] === 'on';
    await settings.set(
      app.id,
      { invitations: ticked('invitations'), reminders: ticked('reminders') },
      { userId: current.session.userId, ...originOf(req) },
    );
    deps.notices.redirect(res, appPaths(app.client_id).calendarMails, 'calendar-mails-saved');
  });

  return router;
}

function offsetText(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes % 60 !== 0) return `${minutes} minutes`;
  const hours = minutes / 60;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}
