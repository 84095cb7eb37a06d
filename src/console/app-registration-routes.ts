import { Router } from 'express';
import { ValidationError } from '../errors.js';
import { chosenGrantTypes } from './app-details-routes.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { originOf } from '../http/request-origin.js';
import { field, redirectUriFields, sentence } from './forms.js';
import type { ConsolePages, NewAppValues } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

const REDIRECT_REQUIRED = 'Enter at least one redirect URL.';
const CLIENT_TYPE_REQUIRED = 'Choose whether the app is confidential or public.';

/**
 * The console's dashboard (the signed-in user's apps) and app registration. A confidential app's
 * new secret is carried to its one display on the Credentials tab.
 */
export function appRegistrationRouter(
  deps: ConsoleDependencies,
  guards: ConsoleGuards,
  pages: ConsolePages,
): Router {
  const { flash, notices } = deps;
  const accountService = deps.accounts;
  const appService = deps.apps;
  const { form } = guards;
  const router = Router();

  router.get(CONSOLE_PATHS.dashboard, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const apps = await appService.listApps({ ownerUserId: current.session.userId });
    pages.dashboard(res, current.viewer, apps);
  });

  router.get(CONSOLE_PATHS.newApp, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    pages.newApp(res, current.viewer, {
      values: {
        name: '',
        clientType: 'confidential',
        redirectUris: [],
        description: '',
        grantTypes: appService.grantTypes,
      },
    });
  });

  router.post(CONSOLE_PATHS.newApp, form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    const clientType = field(req, 'client_type');
    const values: NewAppValues = {
      name: field(req, 'name'),
      clientType: clientType === 'public' ? 'public' : 'confidential',
      redirectUris: redirectUriFields(req),
      description: field(req, 'description'),
      grantTypes: chosenGrantTypes(req) ?? appService.grantTypes,
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
        context: originOf(req),
      });
      if (created.clientSecret) {
        await flash.put(current.session.idHash, created.app.client_id, created.clientSecret);
      }
      notices.redirect(res, appPaths(created.app.client_id).credentials, 'app-registered');
    } catch (error) {
      if (error instanceof ValidationError) {
        return again(sentence(error.message), error.field ?? 'name');
      }
      throw error;
    }
  });

  return router;
}
