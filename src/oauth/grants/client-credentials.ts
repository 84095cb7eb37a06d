import type { components } from '../../../generated/openapi.js';
import { validateClientCredentialsGrant } from '../../../generated/validators.cjs';
import { OAuthError } from '../oauth-error.js';
import { parseScope, scopeSet } from '../scopes.js';
import type { Grant } from './grant.js';

export type ClientCredentialsGrant = components['schemas']['ClientCredentialsGrantRequest'];

/** Scopes a client-credentials token may carry: it acts for the app, not for a person. */
const CLIENT_CREDENTIALS_SCOPES = new Set(['employer_access']);

/**
 * The client credentials grant: a confidential app gets an access token for itself
 * (`sub` is `app:<client_id>`), scoped to one of its owner's employers when it names one.
 */
export const clientCredentialsGrant: Grant<ClientCredentialsGrant> = {
  name: 'client_credentials',
  label: 'Client credentials',
  description: 'the app acts for itself and its employers',
  validate: validateClientCredentialsGrant,
  publicClients: false,
  cachedClient: true,

  async handle(issuer, client, request) {
    const requested = parseScope(request.scope);
    const refused = requested.find((scope) => !CLIENT_CREDENTIALS_SCOPES.has(scope));
    if (refused) {
      throw new OAuthError(
        'invalid_scope',
        `scope ${refused} cannot be granted to client_credentials; use employer_access`,
      );
    }
    const scope = scopeSet(requested);
    const employerId = await issuer.employerForApp(client, scope, request.employer);
    return issuer.issueAppAccessToken(client, scope, employerId, 'client_credentials');
  },
};
