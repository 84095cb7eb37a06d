import { Router, type Response } from 'express';
import { MAX_BUDGET_UNITS, parseBudget, type AppBudget } from '../cost-budgets/budget-settings.js';
import type { AppRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';
import { originOf } from '../http/request-origin.js';
import { appTabs } from './app-tabs.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { field, sentence } from './forms.js';
import { renderConsolePage, type Viewer } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/**
 * An app's API budget tab: its GraphQL cost budget per window, which its owner may set or give
 * back to the default (src/cost-budgets/budget-settings.ts; every change audited).
 */
export function appBudgetRouter(deps: ConsoleDependencies, guards: ConsoleGuards): Router {
  const { form } = guards;
  const router = Router();

  router.get(CONSOLE_PATHS.app.budget, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const app = await guards.ownedApp(res, current, String(req.params.clientId));
    if (!app) return;
    const budget = await deps.budgets.budgetOf(app.id);
    budgetPage(
      res,
      200,
      current.viewer,
      app,
      budget,
      budget.own === undefined ? '' : String(budget.own),
    );
  });

  router.post(CONSOLE_PATHS.app.budget, form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    const app = await guards.ownedApp(res, current, String(req.params.clientId));
    if (!app) return;
    const value = field(req, 'units');
    try {
      await deps.budgets.setBudget(app.id, parseBudget(value), {
        actorUserId: current.session.userId,
        ...originOf(req),
      });
      deps.notices.redirect(res, appPaths(app.client_id).budget, 'budget-updated');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const budget = await deps.budgets.budgetOf(app.id);
      budgetPage(res, 400, current.viewer, app, budget, value, sentence(error.message));
    }
  });

  return router;
}

function budgetPage(
  res: Response,
  status: number,
  viewer: Viewer,
  app: AppRow,
  budget: AppBudget,
  value: string,
  problem?: string,
): void {
  renderConsolePage(res, status, 'console-app-budget.njk', viewer, {
    dashboard_href: CONSOLE_PATHS.dashboard,
    app_name: app.name,
    tabs: appTabs(app.client_id, 'budget'),
    action: appPaths(app.client_id).budget,
    units: budget.units.toLocaleString('en-US'),
    own: budget.own !== undefined,
    default_units: budget.defaultUnits.toLocaleString('en-US'),
    window_seconds: budget.windowSeconds,
    max_units: MAX_BUDGET_UNITS.toLocaleString('en-US'),
    value,
    problem,
  });
}
