import type { components } from '../../../generated/openapi.js';
import type { Config } from '../../config.js';

export type ProtectedResourceMetadata = components['schemas']['ProtectedResourceMetadata'];

/**
 * Scopes that open the API host's resources: the Interview API needs an employer-scoped token
 * (`employer_access`); `interviews.schedule` is asked for on the consent page. The other scopes
 * concern the authorization server (`openid`, `email` for userinfo, `offline_access`).
 */
const RESOURCE_SCOPES: ProtectedResourceMetadata['scopes_supported'] = [
  'employer_access',
  'interviews.schedule',
];

/**
 * RFC 9728 metadata of the API host as a protected resource. `resource` is the `aud` of every
 * access token. No `jwks_uri`: that member names keys the resource itself signs with, and it
 * signs nothing; token keys are found through the authorization server's metadata.
 */
export function protectedResourceMetadata(config: Config): ProtectedResourceMetadata {
  return {
    resource: config.apiUrl,
    authorization_servers: [config.authUrl],
    scopes_supported: RESOURCE_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'Hiring partner API',
  };
}
