import type { components } from '../../../generated/openapi.js';
import type { Config } from '../../config.js';
import { SUPPORTED_SCOPES } from '../scopes.js';

export type ServerMetadata = components['schemas']['AuthorizationServerMetadata'];

/**
 * Discovery metadata (OpenID Connect Discovery and RFC 8414). It advertises only what is
 * implemented, with user-facing endpoints under AUTH_URL and back-channel ones under API_URL;
 * `grantTypes` are the grant registry's names.
 */
export function serverMetadata(config: Config, grantTypes: readonly string[]): ServerMetadata {
  const clientAuth = ['client_secret_basic', 'client_secret_post'];
  return {
    issuer: config.authUrl,
    authorization_endpoint: `${config.authUrl}/oauth/v2/authorize`,
    token_endpoint: `${config.apiUrl}/oauth/v2/tokens`,
    userinfo_endpoint: `${config.authUrl}/v2/api/userinfo`,
    jwks_uri: `${config.authUrl}/.well-known/keys`,
    revocation_endpoint: `${config.apiUrl}/oauth/v2/revoke`,
    introspection_endpoint: `${config.apiUrl}/oauth/v2/introspect`,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...grantTypes],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...clientAuth, 'none'],
    revocation_endpoint_auth_methods_supported: [...clientAuth, 'none'],
    introspection_endpoint_auth_methods_supported: clientAuth,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: [
      'iss',
      'sub',
      'aud',
      'azp',
      'iat',
      'exp',
      'auth_time',
      'nonce',
      'email',
      'email_verified',
      'employers',
    ],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  } as ServerMetadata;
}
