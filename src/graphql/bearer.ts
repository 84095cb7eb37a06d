import type { BearerAuthenticator } from './gateway.js';

/**
 * The gateway's authenticator while the authorization server does not issue tokens yet: no
 * bearer token can be valid, so every GraphQL request is answered with UNAUTHENTICATED.
 * Replaced by the access-token verifier of the OAuth module.
 */
export const noTokensIssuedYet: BearerAuthenticator = async () => null;
