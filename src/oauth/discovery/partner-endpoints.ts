import type { Config } from '../../config.js';
import { serverMetadata } from './server-metadata.js';

export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const APPINFO_PATH = '/v2/api/appinfo';
export const GRAPHQL_PATH = '/graphql';

/** The addresses a partner app calls, as the console shows them. */
export interface PartnerEndpoints {
  issuer: string;
  discovery: string;
  authorize: string;
  token: string;
  userinfo: string;
  appinfo: string;
  graphql: string;
}

/**
 * Read from the discovery document itself where it has them, so the console never shows an
 * address discovery does not advertise.
 */
export function partnerEndpoints(config: Config, grantTypes: readonly string[]): PartnerEndpoints {
  const metadata = serverMetadata(config, grantTypes);
  return {
    issuer: metadata.issuer,
    discovery: `${metadata.issuer}${DISCOVERY_PATH}`,
    authorize: metadata.authorization_endpoint,
    token: metadata.token_endpoint,
    userinfo: metadata.userinfo_endpoint,
    appinfo: `${config.authUrl}${APPINFO_PATH}`,
    graphql: `${config.apiUrl}${GRAPHQL_PATH}`,
  };
}
