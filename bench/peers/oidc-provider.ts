/**
 * Peer of the token endpoint: node-oidc-provider 9 with its default in-memory adapter, one
 * confidential client (client_secret_basic) allowed the client_credentials grant and one scope.
 * Production settings: its own signing keys and cookie keys, no development interactions.
 * The client's id, secret and scope come from PEER_CLIENT_ID, PEER_CLIENT_SECRET and PEER_SCOPE.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { announce, listenOnLoopback } from './announce.js';

const clientId = required('PEER_CLIENT_ID');
const clientSecret = required('PEER_CLIENT_SECRET');
const scope = required('PEER_SCOPE');

const server = createServer();
const issuer = await listenOnLoopback(server);
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  features: {
    clientCredentials: { enabled: true },
    devInteractions: { enabled: false },
  },
  scopes: [scope],
  jwks: {
    keys: [{ ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' }],
  },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
});
server.on('request', provider.callback());
announce(issuer);

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}
