import { randomBytes } from 'node:crypto';
import type { AccountService } from '../accounts/account-service.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { ApiAccessService } from '../accounts/api-access-service.js';
import type { AppService } from '../accounts/app-service.js';
import type { AppStore } from '../accounts/app-store.js';
import type { AppRow } from '../db/rows.js';
import { NotFoundError } from '../errors.js';
import { DEMO_REDIRECT_URI } from './demo.js';

/** Who owns the postings `jobs seed` writes when neither --app nor --employer names them. */
export const SEED_OWNER_EMAIL = 'jobs-seed@example.com';
export const SEED_APP_NAME = 'Jobs Seed App';
export const SEED_EMPLOYER_NAME = 'Jobs Seed Employer';

export interface SeedOwner {
  app: { id: string; client_id: string; name: string };
  employer: { id: string; name: string };
  /** Whether this run created the seed user, app or employer (false: it reused them). */
  created: boolean;
}

export interface SeedOwnerDeps {
  accounts: AccountService;
  apps: AppService;
  apiAccess: ApiAccessService;
  stores: { accounts: AccountStore; apps: AppStore };
}

/**
 * The app and employer seeded postings belong to: the app named by `--app` (client id or id)
 * and the employer named by `--employer`; whichever is not named is the seed's own, reused
 * from an earlier run or created (a user `jobs-seed@example.com` with a random password, its
 * app `Jobs Seed App` with Job Sync and job search enabled, the employer `Jobs Seed Employer`
 * with the app's owner as admin), as `demo` creates its account.
 */
export async function resolveSeedOwner(
  deps: SeedOwnerDeps,
  named: { app?: string; employer?: string },
): Promise<SeedOwner> {
  let created = false;
  let app: AppRow;
  if (named.app) {
    app = await namedApp(deps.stores.apps, named.app);
  } else {
    const seedApp = await ensureSeedApp(deps);
    app = seedApp.app;
    created = seedApp.created;
  }
  if (named.employer) {
    const employer = await deps.stores.accounts.findEmployerById(named.employer);
    if (!employer) throw new NotFoundError(`no employer with id ${named.employer}`, 'employer');
    return { app: publicApp(app), employer: { id: employer.id, name: employer.name }, created };
  }
  const existing = (await deps.accounts.employersOfUser(app.owner_user_id)).find(
    (employer) => employer.name === SEED_EMPLOYER_NAME,
  );
  if (existing) {
    return { app: publicApp(app), employer: { id: existing.id, name: existing.name }, created };
  }
  const owner = await deps.stores.accounts.findUserById(app.owner_user_id);
  if (!owner) throw new NotFoundError(`the owner of app ${app.client_id} is gone`, 'app');
  const { employer } = await deps.accounts.createEmployer({
    name: SEED_EMPLOYER_NAME,
    memberEmails: [owner.email],
  });
  return { app: publicApp(app), employer: { id: employer.id, name: employer.name }, created: true };
}

async function namedApp(apps: AppStore, clientIdOrId: string): Promise<AppRow> {
  const app = (await apps.findByClientId(clientIdOrId)) ?? (await apps.findById(clientIdOrId));
  if (!app) throw new NotFoundError(`no app with client id or id ${clientIdOrId}`, 'app');
  return app;
}

async function ensureSeedApp(deps: SeedOwnerDeps): Promise<{ app: AppRow; created: boolean }> {
  let created = false;
  let user = await deps.stores.accounts.findUserByEmail(SEED_OWNER_EMAIL);
  if (!user) {
    await deps.accounts.createUser({
      email: SEED_OWNER_EMAIL,
      password: randomBytes(18).toString('base64url'),
      name: 'Jobs Seed',
    });
    user = (await deps.stores.accounts.findUserByEmail(SEED_OWNER_EMAIL))!;
    created = true;
  }
  const listed = (await deps.apps.listApps({ ownerUserId: user.id })).find(
    (app) => app.name === SEED_APP_NAME,
  );
  let app = listed && (await deps.stores.apps.findById(listed.id));
  if (!app) {
    ({ app } = await deps.apps.createApp({
      ownerEmail: SEED_OWNER_EMAIL,
      name: SEED_APP_NAME,
      redirectUris: [DEMO_REDIRECT_URI],
    }));
    created = true;
  }
  // Its postings are to be read back (node(id)) and searched (jobSearch) with its tokens.
  for (const api of ['job-sync', 'job-search']) await deps.apiAccess.setEnabled(app, api, true);
  return { app, created };
}

function publicApp(app: AppRow): SeedOwner['app'] {
  return { id: app.id, client_id: app.client_id, name: app.name };
}
