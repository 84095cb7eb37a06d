import { decodeJwt } from 'jose';
import { REDIRECT_URI, basic, callApi, type Observed } from './oauth-fixtures.js';

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
