import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../../../src/clock.js';
import { ConsentStore } from '../../../src/oauth/authorize/consent-store.js';
import { SessionStore } from '../../../src/sessions/session-store.js';
import { BrowserSessions, SESSION_COOKIE } from '../../../src/sessions/sessions.js';
import type { TestDatabase } from '../../support/databases.js';
import {
  REDIRECT_URI,
  basic,
  createOAuthTenant,
  issueCode,
  type OAuthTenant,
} from '../../support/oauth-fixtures.js';
import { startDeployment, type DeploymentKind } from '../../support/deployments.js';

/** Limits high enough that thousands of fuzz requests from one address are never throttled. */
const UNTHROTTLED = {
  RATE_LIMIT_TOKEN_MAX: '100000000',
  RATE_LIMIT_SIGN_IN_MAX: '100000000',
};

/** One of each kind of token, issued together. */
export interface TokenSet {
  /** Client-credentials access token scoped to the tenant's employer. */
  employerToken: string;
  /** Client-credentials access token without an employer. */
  appToken: string;
  /** Authorization-code access token of the tenant's user (employer-scoped). */
  userToken: string;
  /** The refresh token issued with userToken. */
  refreshToken: string;
}

export interface FuzzService extends TokenSet {
  url: string;
  tenant: OAuthTenant;
  /** A new set of tokens, for a target whose requests may revoke or use up the previous ones. */
  freshTokens(): Promise<TokenSet>;
  /** A fresh, unused authorization code for the tenant's confidential app. */
  newCode(): Promise<string>;
  /**
   * The Cookie header of a browser signed in as the tenant's user, who has consented to both
   * apps for `scopeSets`, so authorization requests get as far as issuing codes.
   */
  signedInBrowser(scopeSets: string[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The real service on a test database, with a tenant, tokens and no rate limits in the way:
 * in this process, or as the production default (a cluster of two workers).
 */
export async function startFuzzService(
  database: TestDatabase,
  deployment: DeploymentKind,
): Promise<FuzzService> {
  const service = await startDeployment(database, deployment, UNTHROTTLED);
  const tenant = await createOAuthTenant(database.db, systemClock, 'fuzz');
  const newCode = () =>
    issueCode(database.db, systemClock, { app_id: tenant.app.id, user_id: tenant.user.id });
  const client = basic(tenant.app.client_id, tenant.app.secret);
  const freshTokens = async (): Promise<TokenSet> => {
    const employerToken = await issueToken(service.url, client, {
      grant_type: 'client_credentials',
      scope: 'employer_access',
      employer: tenant.employer.id,
    });
    const appToken = await issueToken(service.url, client, {
      grant_type: 'client_credentials',
      scope: 'employer_access',
    });
    const exchanged = await requestTokens(service.url, client, {
      grant_type: 'authorization_code',
      code: await newCode(),
      redirect_uri: REDIRECT_URI,
      employer: tenant.employer.id,
    });
    return {
      employerToken,
      appToken,
      userToken: exchanged.access_token,
      refreshToken: exchanged.refresh_token!,
    };
  };
  const signedInBrowser = async (scopeSets: string[]): Promise<string> => {
    const consents = new ConsentStore(database.db);
    for (const app of [tenant.app, tenant.publicApp]) {
      for (const scopeSet of scopeSets) {
        await consents.remember({
          id: randomUUID(),
          user_id: tenant.user.id,
          app_id: app.id,
          scope_set: scopeSet,
          granted_at: Date.now(),
        });
      }
    }
    const sessions = new BrowserSessions(new SessionStore(database.db), systemClock, {
      secure: false,
    });
    return `${SESSION_COOKIE}=${(await sessions.create(tenant.user.id)).id}`;
  };
  return {
    ...(await freshTokens()),
    url: service.url,
    tenant,
    freshTokens,
    newCode,
    signedInBrowser,
    stop: () => service.stop(),
  };
}

/**
 * After a fuzz run: the service is ready, still issues tokens and still writes events.
 */
export async function assertStillHealthy(service: FuzzService): Promise<void> {
  const ready = await fetch(`${service.url}/readyz`);
  assert.equal(ready.status, 200, `readyz answered ${ready.status}`);
  const token = await issueToken(
    service.url,
    basic(service.tenant.app.client_id, service.tenant.app.secret),
    {
      grant_type: 'client_credentials',
      scope: 'employer_access',
      employer: service.tenant.employer.id,
    },
  );
  const created = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `mutation($input: CreateVirtualInterviewEventInput!) {
        createVirtualInterviewEvent(input: $input) { event { id title } } }`,
      variables: { input: healthyEventInput() },
    }),
  });
  const body = (await created.json()) as {
    data?: { createVirtualInterviewEvent?: { event: { id: string } } };
    errors?: unknown;
  };
  assert.equal(created.status, 200);
  assert.ok(body.data?.createVirtualInterviewEvent?.event.id, JSON.stringify(body));
}

/** A create input that passes every rule. */
export function healthyEventInput(): Record<string, unknown> {
  return {
    title: 'Fuzz check',
    startTime: '2027-01-04T09:00:00-05:00',
    endTime: '2027-01-04T10:00:00-05:00',
    timezone: 'America/New_York',
    interviewers: [{ email: 'lee@example.com' }],
    requestMetadata: { atsName: 'Fuzz ATS' },
  };
}

async function issueToken(
  url: string,
  headers: Record<string, string>,
  form: Record<string, string>,
): Promise<string> {
  return (await requestTokens(url, headers, form)).access_token;
}

async function requestTokens(
  url: string,
  headers: Record<string, string>,
  form: Record<string, string>,
): Promise<{ access_token: string; refresh_token?: string }> {
  const response = await fetch(`${url}/oauth/v2/tokens`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json()) as { access_token: string; refresh_token?: string };
  assert.equal(
    response.status,
    200,
    `token request answered ${response.status}: ${JSON.stringify(body)}`,
  );
  return body;
}
