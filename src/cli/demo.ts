import { randomBytes } from 'node:crypto';
import type { AccountService } from '../accounts/account-service.js';
import type { ApiAccessService } from '../accounts/api-access-service.js';
import type { AppService } from '../accounts/app-service.js';
import type { EmployerPatcher } from '../employer-data/employer-patcher.js';
import type { PostingWriter } from '../job-sync/posting-writer.js';
import { createDemoPostings } from './demo-postings.js';

/** Where the service answers: tokens at the API URL, appinfo at the authorization server. */
export interface ServiceUrls {
  authUrl: string;
  apiUrl: string;
}

export const DEMO_REDIRECT_URI = 'http://localhost:8080/callback';
const DEMO_EMPLOYERS = ['Demo Employer North', 'Demo Employer South'];

export interface DemoAccount {
  user: { id: string; email: string; password: string };
  employers: Array<{ id: string; name: string }>;
  app: { client_id: string; client_secret: string; name: string; redirect_uris: string[] };
  /** sourcedPostingIds of the demo postings (Job Sync) of the first employer. */
  postings: string[];
  /** Ready-to-run commands against the configured service. */
  commands: { token: string; appinfo: string };
}

/**
 * Sets up everything needed to try the API: a user with a fresh email and random password, two
 * employers with that user as admin, a confidential app enabled for the Jobs APIs, the employer
 * its postings cite and a few postings. Every run creates a new user, so running it again never
 * collides with an earlier demo or a real account.
 */
export async function createDemoAccount(
  services: {
    accounts: AccountService;
    apps: AppService;
    apiAccess: ApiAccessService;
    jobs: { postings: PostingWriter; employers: EmployerPatcher };
  },
  urls: ServiceUrls,
): Promise<DemoAccount> {
  const suffix = randomBytes(4).toString('hex');
  const email = `demo-${suffix}@example.com`;
  const password = randomBytes(12).toString('base64url');
  const user = await services.accounts.createUser({ email, password, name: 'Demo Partner' });
  const employers = [];
  for (const name of DEMO_EMPLOYERS) {
    const { employer } = await services.accounts.createEmployer({ name, memberEmails: [email] });
    employers.push({ id: employer.id, name: employer.name });
  }
  const { app, clientSecret } = await services.apps.createApp({
    ownerEmail: email,
    name: `Demo App ${suffix}`,
    redirectUris: [DEMO_REDIRECT_URI],
  });
  if (!clientSecret) throw new Error('the demo app was created without a client secret');
  const employerId = employers[0]!.id;
  const postings = await createDemoPostings(
    { apiAccess: services.apiAccess, ...services.jobs },
    app,
    employerId,
  );
  return {
    user: { id: user.id, email, password },
    employers,
    app: {
      client_id: app.client_id,
      client_secret: clientSecret,
      name: app.name,
      redirect_uris: app.redirect_uris,
    },
    postings,
    commands: {
      token:
        `curl -u '${app.client_id}:${clientSecret}' ${urls.apiUrl}/oauth/v2/tokens ` +
        `-d grant_type=client_credentials -d scope=employer_access -d employer=${employerId}`,
      appinfo: `curl -H "Authorization: Bearer $ACCESS_TOKEN" ${urls.authUrl}/v2/api/appinfo`,
    },
  };
}

/** The demo as lines for a terminal. */
export function describeDemo(demo: DemoAccount, urls: ServiceUrls): string[] {
  const line = (label: string, value: string) => `${label.padEnd(17)}${value}`;
  return [
    'Created a demo account (every run creates a new one).',
    '',
    line('Console:', `${urls.authUrl}/console`),
    line('  email:', demo.user.email),
    line('  password:', demo.user.password),
    '',
    ...demo.employers.map((employer) => line('Employer:', `${employer.id}  ${employer.name}`)),
    '',
    line('App:', `${demo.app.name} (confidential)`),
    line('  client_id:', demo.app.client_id),
    line('  client_secret:', demo.app.client_secret),
    line('  redirect_uri:', demo.app.redirect_uris.join(', ')),
    line('  Jobs APIs:', 'job-sync and employer-data enabled'),
    ...demo.postings.map((id) => line('Job posting:', id)),
    '  (the secret is shown only now; store it safely)',
    '',
    'An employer-scoped token (client credentials):',
    `  ${demo.commands.token}`,
    'The employers that token may act for (put its access_token in ACCESS_TOKEN):',
    `  ${demo.commands.appinfo}`,
  ];
}
