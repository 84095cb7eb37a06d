import { Router, type Request, type Response } from 'express';
import type { Config } from '../../config.js';
import type { SigningKeys } from '../signing-keys/signing-keys.js';
import { DISCOVERY_PATH } from './partner-endpoints.js';
import { protectedResourceMetadata } from './resource-metadata.js';
import { serverMetadata } from './server-metadata.js';

/**
 * Discovery documents and the JWKS of the authorization server; the API host's metadata.
 * `grantTypes` are the grant registry's names, advertised as they are.
 */
export function discoveryRouter(
  config: Config,
  keys: SigningKeys,
  grantTypes: readonly string[],
): Router {
  const router = Router();
  const metadata = serverMetadata(config, grantTypes);
  const sendMetadata = (_req: Request, res: Response) => {
    res.set('Cache-Control', 'public, max-age=300').json(metadata);
  };
  router.get(DISCOVERY_PATH, sendMetadata);
  router.get('/.well-known/oauth-authorization-server', sendMetadata);
  router.get('/.well-known/keys', async (_req, res) => {
    // Short: a rotated key must reach clients well within its activation delay (see
    // DEFAULT_SIGNING_KEY_ACTIVATION_DELAY_SECONDS), and retired keys must drop out soon.
    res.set('Cache-Control', 'public, max-age=30').json(await keys.jwks());
  });
  const resourceMetadata = protectedResourceMetadata(config);
  router.get('/.well-known/oauth-protected-resource', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(resourceMetadata);
  });
  return router;
}
