import { GraphQLError } from 'graphql';
import type { ApiAccess } from '../api.js';

/** The API a refused field belongs to, as the refusal names it. */
export interface GuardedApi extends ApiAccess {
  readonly name: string;
}

/**
 * The hosted platform answers an app that may not use an API with "Client is not authorized"
 * (platform-apis.md §1.1); the rest says what to do about it.
 */
export function notEnabled(api: GuardedApi): GraphQLError {
  return new GraphQLError(
    `Client is not authorized: this app is not enabled for the ${api.title} ("${api.name}"). ` +
      `The app's owner can enable it in the APIs section of the app's page on the console, or ` +
      `with \`app enable-api <client-id> ${api.name}\`.`,
    { extensions: { code: 'FORBIDDEN', api: api.name } },
  );
}

export function missingScopes(api: GuardedApi, missing: readonly string[]): GraphQLError {
  const scope = api.scopes.join(' ');
  return new GraphQLError(
    `Client is not authorized: the ${api.title} ("${api.name}") needs an access token with the ` +
      `scope ${scope}, and this one lacks ${missing.join(' ')}. Request a new token with ` +
      `scope=${encodeURIComponent(scope)}.`,
    { extensions: { code: 'FORBIDDEN', api: api.name } },
  );
}
