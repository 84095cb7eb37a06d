import { Router, type Request, type Response } from 'express';
import type { AppRow } from '../db/rows.js';
import { InvalidFields, NotFoundError, ValidationError } from '../errors.js';
import { partnerEndpoints } from '../oauth/discovery/partner-endpoints.js';
import {
  AppDetailsPages,
  type OverviewValues,
  type RedirectUrlAttempt,
} from './app-details-pages.js';
import type { ConsoleGuards, SignedIn } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { firstCall } from './first-call.js';
import { originOf } from '../http/request-origin.js';
import { field, sentence } from './forms.js';
import type { Notice } from './notices.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/**
 * The grant types ticked on a form, or undefined when the request has no such field at all
 * (a scripted request; the console's forms always send it, so an empty choice is refused).
 */
export function chosenGrantTypes(req: Request): string[] | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.grant_types;
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string' && item !== '');
}

/**
 * An app's Overview, Redirect URLs and Activity tabs and its deletion. Each handler checks the
 * session (and CSRF token for a form), calls AppService, and renders or answers 303; another
 * user's app answers 404 like a missing one.
 */
export function appDetailsRouter(deps: ConsoleDependencies, guards: ConsoleGuards): Router {
  const { form } = guards;
  const { apps, notices } = deps;
  const pages = new AppDetailsPages(deps.grantChoices);
  const endpoints = partnerEndpoints(
    deps.config,
    deps.grantChoices.map((grant) => grant.name),
  );
  const router = Router();

  /** The Overview's ready requests: this app's redirect URLs and the owner's employers. */
  async function firstCallOf(current: SignedIn, app: AppRow) {
    const [redirectUris, employers] = await Promise.all([
      apps.redirectUrisOf(app),
      deps.accounts.membershipsOf(current.session.userId),
    ]);
    return firstCall({ app, redirectUris, employers, endpoints });
  }

  /** The signed-in owner and their app, or undefined once an answer has been sent. */
  async function ownerView(req: Request, res: Response) {
    const current = await guards.signedIn(req, res);
    if (!current) return undefined;
    const app = await guards.ownedApp(res, current, clientIdOf(req));
    return app && { current, app };
  }

  async function ownerForm(req: Request, res: Response) {
    const current = await guards.signedInForm(req, res);
    if (!current) return undefined;
    const app = await guards.ownedApp(res, current, clientIdOf(req));
    return app && { current, app };
  }

  router.get(CONSOLE_PATHS.app.overview, async (req, res) => {
    const owned = await ownerView(req, res);
    if (!owned) return;
    const { current, app } = owned;
    pages.overview(res, current.viewer, {
      app,
      firstCall: await firstCallOf(current, app),
      apis: await deps.apiAccess.listFor(app),
    });
  });

  /**
   * One API's switch: `enabled` is `on` or `off`. Disabling also drops every process's verified
   * tokens, so that the app's next call to the API is refused wherever it lands.
   */
  router.post(CONSOLE_PATHS.app.api, form, async (req, res) => {
    const owned = await ownerForm(req, res);
    if (!owned) return;
    const { current, app } = owned;
    const wanted = field(req, 'enabled');
    const api = String(req.params.api);
    if ((wanted !== 'on' && wanted !== 'off') || !deps.apiAccess.apis.some((k) => k.name === api)) {
      return guards.notFound(res, current.viewer);
    }
    const enabled = wanted === 'on';
    await deps.apiAccess.setEnabled(app, api, enabled, {
      userId: current.session.userId,
      ...originOf(req),
    });
    if (!enabled) await deps.forgetVerifiedTokens();
    notices.redirect(
      res,
      appPaths(app.client_id).overview,
      enabled ? 'api-enabled' : 'api-disabled',
    );
  });

  router.post(CONSOLE_PATHS.app.editOverview, form, async (req, res) => {
    const owned = await ownerForm(req, res);
    if (!owned) return;
    const { current, app } = owned;
    const values: OverviewValues = {
      name: field(req, 'name'),
      description: field(req, 'description'),
      grantTypes: chosenGrantTypes(req) ?? [],
      developerName: field(req, 'developer_name'),
      homepageUrl: field(req, 'homepage_url'),
      privacyPolicyUrl: field(req, 'privacy_policy_url'),
      logoUrl: field(req, 'logo_url'),
    };
    try {
      await apps.updateDetails(current.session.userId, app.client_id, values, originOf(req));
      notices.redirect(res, appPaths(app.client_id).overview, 'app-updated');
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, current.viewer);
      if (!(error instanceof ValidationError)) throw error;
      const problems =
        error instanceof InvalidFields
          ? error.problems
          : [{ field: error.field ?? 'name', message: error.message }];
      pages.overview(res, current.viewer, {
        app,
        values,
        problems: problems.map((problem) => ({ ...problem, message: sentence(problem.message) })),
        firstCall: await firstCallOf(current, app),
        apis: await deps.apiAccess.listFor(app),
      });
    }
  });

  router.get(CONSOLE_PATHS.app.redirectUrls, async (req, res) => {
    const owned = await ownerView(req, res);
    if (!owned) return;
    const uris = await apps.redirectUrisOf(owned.app);
    pages.redirectUrls(res, owned.current.viewer, { app: owned.app, uris });
  });

  /** Runs one redirect URL change, then shows the list again or the refusal beside the input. */
  async function changeRedirectUrls(
    req: Request,
    res: Response,
    position: number | 'new',
    done: Notice,
    change: (current: SignedIn, clientId: string, uri: string) => Promise<unknown>,
  ): Promise<void> {
    const owned = await ownerForm(req, res);
    if (!owned) return;
    const { current, app } = owned;
    const value = field(req, 'redirect_uri').trim();
    try {
      await change(current, app.client_id, value);
      notices.redirect(res, appPaths(app.client_id).redirectUrls, done);
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, current.viewer);
      if (!(error instanceof ValidationError)) throw error;
      const attempt: RedirectUrlAttempt = {
        position,
        value,
        problem: { message: sentence(error.message), field: 'redirect_uris' },
      };
      const uris = await apps.redirectUrisOf(app);
      pages.redirectUrls(res, current.viewer, { app, uris, attempt });
    }
  }

  router.post(CONSOLE_PATHS.app.redirectUrls, form, (req, res) =>
    changeRedirectUrls(req, res, 'new', 'redirect-url-added', (current, clientId, uri) => {
      if (!uri) throw new ValidationError('enter a redirect URL to add', 'redirect_uris');
      return apps.addRedirectUri(current.session.userId, clientId, uri, originOf(req));
    }),
  );

  router.post(CONSOLE_PATHS.app.redirectUrl, form, (req, res) => {
    const position = positionOf(req);
    return changeRedirectUrls(
      req,
      res,
      position,
      'redirect-url-changed',
      (current, clientId, uri) => {
        if (!uri) {
          throw new ValidationError(
            'enter the redirect URL, or remove it instead',
            'redirect_uris',
          );
        }
        return apps.replaceRedirectUri(
          current.session.userId,
          clientId,
          position,
          uri,
          originOf(req),
        );
      },
    );
  });

  router.get(CONSOLE_PATHS.app.removeRedirectUrl, async (req, res) => {
    const owned = await ownerView(req, res);
    if (!owned) return;
    const position = positionOf(req);
    const uri = (await apps.redirectUrisOf(owned.app))[position - 1];
    if (uri === undefined) return guards.notFound(res, owned.current.viewer);
    pages.confirmRedirectUrlRemoval(res, owned.current.viewer, { app: owned.app, position, uri });
  });

  router.post(CONSOLE_PATHS.app.removeRedirectUrl, form, (req, res) => {
    const position = positionOf(req);
    // Only the confirmation page's form says yes; anything else is shown that page first.
    if (field(req, 'confirm') !== 'yes') {
      return res.redirect(303, appPaths(clientIdOf(req)).removeRedirectUrl(position));
    }
    // The URL the confirmation showed: if another is at that position by now, nothing goes.
    const shown = field(req, 'redirect_uri') || undefined;
    return changeRedirectUrls(req, res, position, 'redirect-url-removed', (current, clientId) =>
      apps.removeRedirectUri(current.session.userId, clientId, position, shown, originOf(req)),
    );
  });

  router.get(CONSOLE_PATHS.app.activity, async (req, res) => {
    const owned = await ownerView(req, res);
    if (!owned) return;
    const events = await apps.recentActivity(owned.app, AppDetailsPages.activityLimit);
    pages.activity(res, owned.current.viewer, { app: owned.app, events });
  });

  router.get(CONSOLE_PATHS.app.delete, async (req, res) => {
    const owned = await ownerView(req, res);
    if (owned) pages.confirmDelete(res, owned.current.viewer, owned.app);
  });

  router.post(CONSOLE_PATHS.app.delete, form, async (req, res) => {
    const owned = await ownerForm(req, res);
    if (!owned) return;
    try {
      await apps.deleteApp(owned.current.session.userId, owned.app.client_id, originOf(req));
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, owned.current.viewer);
      throw error;
    }
    await deps.forgetVerifiedTokens();
    notices.redirect(res, CONSOLE_PATHS.dashboard, 'app-deleted');
  });

  return router;
}

function clientIdOf(req: Request): string {
  return String(req.params.clientId);
}

/** The 1-based position in the path; anything else reads as a position no list has. */
function positionOf(req: Request): number {
  const raw = String(req.params.position);
  return /^[1-9]\d{0,2}$/.test(raw) ? Number(raw) : 0;
}
