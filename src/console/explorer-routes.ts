import { Router } from 'express';
import { NotFoundError } from '../errors.js';
import type { ConsoleGuards, SignedIn } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { ExplorerPages, type ExplorerChoice } from './explorer-pages.js';
import { originOf } from '../http/request-origin.js';
import { field } from './forms.js';
import { CONSOLE_PATHS } from './paths.js';

const CHOOSE_APP = 'Choose one of your apps.';
const CHOOSE_EMPLOYER = 'Choose one of the employers you belong to.';

/**
 * The API explorer: the partner picks one of their apps and one of their employers, the
 * console issues a short-lived employer token for that app (a POST: it writes a token and an
 * audit entry), and the page answers with GraphiQL using it. Another partner's app and an
 * employer the partner does not belong to are refused like unknown ones.
 */
export function explorerRouter(deps: ConsoleDependencies, guards: ConsoleGuards): Router {
  const pages = new ExplorerPages(new URL('/graphql', deps.config.apiUrl).href);
  const router = Router();

  async function choices(current: SignedIn) {
    const userId = current.session.userId;
    const [apps, employers] = await Promise.all([
      deps.apps.listApps({ ownerUserId: userId }),
      deps.accounts.membershipsOf(userId),
    ]);
    return { apps, employers };
  }

  router.get(CONSOLE_PATHS.explorer, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    pages.picker(res, current.viewer, await choices(current));
  });

  router.post(CONSOLE_PATHS.explorer, guards.form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    const chosen: ExplorerChoice = {
      clientId: field(req, 'client_id'),
      employerId: field(req, 'employer'),
    };
    const available = await choices(current);
    const refuse = (message: string, problemField: string) =>
      pages.picker(res, current.viewer, {
        ...available,
        chosen,
        status: 400,
        problem: { message, field: problemField },
      });

    const app = await deps.apps.findOwnedApp(current.session.userId, chosen.clientId);
    if (!app) return refuse(CHOOSE_APP, 'client_id');
    if (!available.employers.some(({ employer }) => employer.id === chosen.employerId)) {
      return refuse(CHOOSE_EMPLOYER, 'employer');
    }
    try {
      const token = await deps.explorerTokens.issue({
        userId: current.session.userId,
        app,
        employerId: chosen.employerId,
        ...originOf(req),
      });
      pages.explorer(res, current.viewer, { ...available, chosen, token });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      refuse(error.field === 'employer' ? CHOOSE_EMPLOYER : CHOOSE_APP, error.field ?? 'client_id');
    }
  });

  return router;
}
