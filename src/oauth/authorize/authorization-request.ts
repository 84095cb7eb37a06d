import { validateAuthorizeQuery, validateClientId } from '../../../generated/validators.cjs';
import type { AppStore } from '../../accounts/app-store.js';
import type { AppRow } from '../../db/rows.js';
import { describeValidationErrors, validationMessage } from '../../http/openapi-validation.js';
import { OAuthError } from '../oauth-error.js';
import { parseScope, scopeSet, type Scope } from '../scopes.js';

/** Query parameters as read from the URL; a parameter sent more than once becomes an array. */
export type QueryParameters = Record<string, string | string[]>;

/** A valid authorization request, as every step of the flow sees it. */
export interface AuthorizationRequest {
  /** The query string exactly as the client sent it; the forms carry it between steps. */
  query: string;
  app: AppRow;
  redirectUri: string;
  scopes: Scope[];
  /** The requested scopes in their one normalised spelling (`scopeSet`). */
  scope: string;
  /** Returned to the client unchanged; undefined when the request had none. */
  state: string | undefined;
  /** `prompt=select_employer`: offer the employer-selection page after consent. */
  selectEmployer: boolean;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | null;
  nonce: string | null;
}

export type CheckedRequest =
  | { outcome: 'valid'; request: AuthorizationRequest }
  /** No trustworthy redirect_uri: answer with an error page, never a redirect. */
  | { outcome: 'unredirectable'; message: string }
  /** The client is known and the redirect_uri registered: report the error there. */
  | {
      outcome: 'redirect-error';
      redirectUri: string;
      state: string | undefined;
      error: OAuthError;
    };

/** Reads a raw query string; `+` is a space and repeated parameters are kept, as arrays. */
export function parseQuery(query: string): QueryParameters {
  const parameters: QueryParameters = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = parameters[name];
    if (seen === undefined) parameters[name] = value;
    else parameters[name] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return parameters;
}

/**
 * Checks an authorization request in the order RFC 6749 §4.1.2.1 requires: first the client and
 * its redirect_uri (failures there cannot be redirected), then everything else (failures there
 * are sent back to the client). Every step of the flow runs this again on the query its form
 * carried, so a tampered form cannot reach a state the original request could not.
 */
export async function checkAuthorizationRequest(
  query: string,
  apps: AppStore,
): Promise<CheckedRequest> {
  const parameters = parseQuery(query);

  const clientId = single(parameters, 'client_id');
  if (typeof clientId !== 'string') return unredirectable('client_id', clientId);
  if (!validateClientId(clientId)) {
    return {
      outcome: 'unredirectable',
      message: `${validationMessage(validateClientId.errors, clientId, 'client_id')}.`,
    };
  }
  const app = await apps.findByClientId(clientId);
  if (!app) {
    return { outcome: 'unredirectable', message: 'client_id does not name a registered app.' };
  }
  const redirectUri = single(parameters, 'redirect_uri');
  if (typeof redirectUri !== 'string') return unredirectable('redirect_uri', redirectUri);
  const registered = await apps.listRedirectUris(app.id);
  if (!registered.includes(redirectUri)) {
    return {
      outcome: 'unredirectable',
      message: 'redirect_uri is not one of the redirect URLs registered for this app.',
    };
  }

  const state = parameters.state;
  const rejected = (error: OAuthError): CheckedRequest => ({
    outcome: 'redirect-error',
    redirectUri,
    state: typeof state === 'string' ? state : undefined,
    error,
  });

  if (!validateAuthorizeQuery(parameters)) {
    return rejected(
      validationError(describeValidationErrors(validateAuthorizeQuery.errors, parameters)),
    );
  }
  const valid = parameters as typeof parameters & {
    scope: string;
    state?: string;
    prompt?: string;
    code_challenge?: string;
    code_challenge_method?: string;
    nonce?: string;
  };

  let scopes: Scope[];
  try {
    scopes = parseScope(valid.scope);
  } catch (error) {
    if (error instanceof OAuthError) return rejected(error);
    throw error;
  }
  if (scopes.length === 0) {
    return rejected(new OAuthError('invalid_scope', 'scope must name at least one scope'));
  }

  const pkceProblem = checkPkce(app, valid.code_challenge, valid.code_challenge_method);
  if (pkceProblem) return rejected(new OAuthError('invalid_request', pkceProblem));

  return {
    outcome: 'valid',
    request: {
      query,
      app,
      redirectUri,
      scopes,
      scope: scopeSet(scopes),
      state: valid.state,
      selectEmployer: valid.prompt === 'select_employer',
      codeChallenge: valid.code_challenge ?? null,
      codeChallengeMethod: valid.code_challenge ? 'S256' : null,
      nonce: valid.nonce ?? null,
    },
  };
}

/** Maps a failure of the generated validator to the error RFC 6749 names for it. */
function validationError(problem: {
  parameter: string | undefined;
  keyword: string;
  message: string;
}) {
  if (problem.parameter === 'response_type' && problem.keyword !== 'required') {
    return new OAuthError('unsupported_response_type', problem.message);
  }
  // RFC 6749 §3.3: a missing or malformed scope fails as invalid_scope.
  if (problem.parameter === 'scope') return new OAuthError('invalid_scope', problem.message);
  return new OAuthError('invalid_request', problem.message);
}

/** PKCE (RFC 7636) with S256 only; public clients cannot do without it. */
function checkPkce(
  app: AppRow,
  challenge: string | undefined,
  method: string | undefined,
): string | undefined {
  if (method !== undefined && challenge === undefined) {
    return 'code_challenge is required when code_challenge_method is given';
  }
  if (challenge !== undefined && method === undefined) {
    // RFC 7636 would read a missing method as `plain`, which this server does not accept.
    return 'code_challenge_method is required with code_challenge and must be S256';
  }
  if (app.client_type === 'public' && challenge === undefined) {
    return 'code_challenge is required: public clients must use PKCE with code_challenge_method=S256';
  }
  return undefined;
}

function single(parameters: QueryParameters, name: string): string | string[] | undefined {
  const value = parameters[name];
  return value === '' ? undefined : value;
}

function unredirectable(name: string, value: string[] | undefined): CheckedRequest {
  return {
    outcome: 'unredirectable',
    message: value === undefined ? `${name} is required.` : `${name} must be given only once.`,
  };
}
