import type { BenchAccounts } from './accounts.js';
import { REDIRECT_URI } from './accounts.js';
import type { ServiceTokens } from './scenarios/index.js';

interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
}

/**
 * The tokens one running service issues to the bench app: two client-credentials tokens (they
 * name the service's URL as issuer, so each configuration gets its own) and, from an
 * authorization code issued in-process, a user access token and a refresh token.
 */
export async function obtainTokens(
  serviceUrl: string,
  accounts: BenchAccounts,
  authorizationCode: string,
): Promise<{ tokens: ServiceTokens; refreshToken: string }> {
  const clientCredentials = async (employer: string) =>
    required(
      await tokenRequest(serviceUrl, accounts, {
        grant_type: 'client_credentials',
        scope: 'employer_access',
        employer,
      }),
      'access_token',
    );
  const exchanged = await tokenRequest(serviceUrl, accounts, {
    grant_type: 'authorization_code',
    code: authorizationCode,
    redirect_uri: REDIRECT_URI,
  });
  return {
    tokens: {
      employer: await clientCredentials(accounts.employers.measured),
      writes: await clientCredentials(accounts.employers.writes),
      user: required(exchanged, 'access_token'),
    },
    refreshToken: required(exchanged, 'refresh_token'),
  };
}

async function tokenRequest(
  serviceUrl: string,
  accounts: BenchAccounts,
  form: Record<string, string>,
): Promise<TokenResponse> {
  const { clientId, clientSecret } = accounts.app;
  const response = await fetch(`${serviceUrl}/oauth/v2/tokens`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json()) as TokenResponse & { error?: string };
  if (!response.ok) {
    throw new Error(`${form.grant_type} token request answered ${response.status} ${body.error}`);
  }
  return body;
}

function required(response: TokenResponse, field: 'access_token' | 'refresh_token'): string {
  const value = response[field];
  if (!value) throw new Error(`the token response has no ${field}`);
  return value;
}
