import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import type { AccessTokenRow } from '../../src/db/rows.js';
import { AuthorizationCodeStore } from '../../src/oauth/authorization-code-store.js';
import { AuthorizationCodes, type CodeGrant } from '../../src/oauth/authorization-codes.js';
import { assertResponseMatches } from './openapi-contract.js';
import { testAccounts } from './compose.js';

export const REDIRECT_URI = 'http://localhost:8080/callback';
export const PASSWORD = 'correct horse battery';

/** A user with one employer (and one employer they do not belong to), plus two apps. */
export async function createOAuthTenant(db: Database, clock: Clock, label = 'ada') {
  const { accounts, apps } = testAccounts(db, clock);
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const user = await accounts.createUser({ email, password: PASSWORD, name: label });
  const { employer } = await accounts.createEmployer({
    name: `${label} Acme`,
    memberEmails: [email],
  });
  const { employer: foreignEmployer } = await accounts.createEmployer({ name: `${label} Globex` });
  const confidential = await apps.createApp({
    ownerEmail: email,
    name: `${label} Scheduler`,
    redirectUris: [REDIRECT_URI],
  });
  const publicClient = await apps.createApp({
    ownerEmail: email,
    name: `${label} SPA`,
    redirectUris: [REDIRECT_URI],
    public: true,
  });
  return {
    user,
    employer,
    foreignEmployer,
    app: { ...confidential.app, secret: confidential.clientSecret! },
    publicApp: publicClient.app,
  };
}

export type OAuthTenant = Awaited<ReturnType<typeof createOAuthTenant>>;

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Issues a code as the authorization endpoint would, without the pages. */
export function issueCode(
  db: Database,
  clock: Clock,
  grant: Partial<CodeGrant> & Pick<CodeGrant, 'app_id' | 'user_id'>,
) {
  return new AuthorizationCodes(new AuthorizationCodeStore(db), clock).issue({
    redirect_uri: REDIRECT_URI,
    scope: 'email employer_access offline_access openid',
    code_challenge: null,
    code_challenge_method: null,
    nonce: null,
    employer_id: null,
    auth_time: clock.now(),
    ...grant,
  });
}

export interface Observed {
  status: number;
  headers: Headers;
  body: any;
}

/** Calls an endpoint and checks the response against openapi.yaml before returning it. */
export async function callApi(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  options: { form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Observed> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.form && { 'content-type': 'application/x-www-form-urlencoded' }),
      ...options.headers,
    },
    body: options.form ? new URLSearchParams(options.form).toString() : undefined,
  });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  const observed = { status: response.status, headers: response.headers, body };
  assertResponseMatches(method, path, observed);
  return observed;
}

export function basic(clientId: string, secret: string): Record<string, string> {
  const encode = (value: string) => encodeURIComponent(value);
  return {
    authorization: `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`,
  };
}

/** The stored record of an access token an hour long, issued now to `appId` (for `userId`). */
export function accessTokenRow(appId: string, userId: string | null = null): AccessTokenRow {
  const now = Date.now();
  return {
    jti: randomUUID(),
    app_id: appId,
    user_id: userId,
    employer_id: null,
    scope: '',
    auth_code_hash: null,
    refresh_family_id: null,
    issued_at: now,
    expires_at: now + 3600_000,
    revoked_at: null,
  };
}
