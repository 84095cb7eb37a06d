import { decodeJwt } from 'jose';
import { systemClock } from '../../src/clock.js';
import type { Database } from '../../src/db/database.js';
import { runConcurrently } from './concurrency.js';
import { InterviewRequests } from './interview-requests.js';
import {
  REDIRECT_URI,
  basic,
  callApi,
  issueCode,
  type OAuthTenant,
  type Observed,
} from './oauth-fixtures.js';

/** A confidential client as the token endpoint sees it. */
export interface ClientCredentials {
  client_id: string;
  secret: string;
}

/**
 * Calls of the token endpoint family as a confidential client with HTTP Basic authentication;
 * every response is checked against openapi.yaml (callApi).
 */
export class TokenRequests {
  constructor(
    private readonly baseUrl: string,
    private readonly client: ClientCredentials,
  ) {}

  clientCredentials(employerId?: string, secret = this.client.secret): Promise<Observed> {
    return this.post(
      '/oauth/v2/tokens',
      {
        grant_type: 'client_credentials',
        ...(employerId && { scope: 'employer_access', employer: employerId }),
      },
      secret,
    );
  }

  exchangeCode(code: string, employerId?: string): Promise<Observed> {
    return this.post('/oauth/v2/tokens', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      ...(employerId && { employer: employerId }),
    });
  }

  refresh(refreshToken: string, employerId?: string): Promise<Observed> {
    return this.post('/oauth/v2/tokens', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...(employerId && { employer: employerId }),
    });
  }

  introspect(token: string): Promise<Observed> {
    return this.post('/oauth/v2/introspect', { token });
  }

  private post(path: string, form: Record<string, string>, secret = this.client.secret) {
    return callApi(this.baseUrl, 'POST', path, {
      form,
      headers: basic(this.client.client_id, secret),
    });
  }
}

/** The `jti` of an access token: the id of the row that must exist once it was handed out. */
export function jtiOf(accessToken: string): string {
  const { jti } = decodeJwt(accessToken);
  if (typeof jti !== 'string') throw new Error('access token without jti');
  return jti;
}

/**
 * Refresh tokens of `count` separate sign-ins (one family each): codes are stored as the
 * authorization endpoint would, then exchanged at the token endpoint.
 */
export async function refreshTokensOfSignIns(
  db: Database,
  tenant: OAuthTenant,
  requests: TokenRequests,
  count: number,
): Promise<string[]> {
  const outcomes = await runConcurrently(count, 8, async () => {
    const code = await issueCode(db, systemClock, {
      app_id: tenant.app.id,
      user_id: tenant.user.id,
    });
    const exchanged = await requests.exchangeCode(code);
    if (exchanged.status !== 200) {
      throw new Error(
        `code exchange answered ${exchanged.status}: ${JSON.stringify(exchanged.body)}`,
      );
    }
    return exchanged.body.refresh_token as string;
  });
  return outcomes.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
}

/** The Interview API at `url` as the tenant's app acting for its employer (client credentials). */
export async function employerApi(url: string, tenant: OAuthTenant): Promise<InterviewRequests> {
  const issued = await new TokenRequests(url, tenant.app).clientCredentials(tenant.employer.id);
  if (issued.status !== 200) throw new Error(`no employer token: ${issued.status}`);
  return new InterviewRequests(url, issued.body.access_token);
}
