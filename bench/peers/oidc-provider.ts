/**
 * Peer of the token endpoint, the refresh grant and introspection: node-oidc-provider 9 with its
 * in-memory adapter, one confidential client (client_secret_basic) allowed client_credentials
 * and refresh_token, refresh tokens rotated on use like the service's, introspection enabled.
 * Production settings: its own signing keys and cookie keys, no development interactions.
 * The client's id, secret and scope come from PEER_CLIENT_ID, PEER_CLIENT_SECRET and PEER_SCOPE.
 *
 * `POST /bench/refresh-tokens?count=n` (the harness's, not a measured route) mints a pool of n
 * refresh tokens through the provider's own models, each of a grant of its own (as each of the
 * service's pooled tokens is the only one of its family), and answers them as a JSON array.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import LRU from 'oidc-provider/lib/helpers/lru.js';
import { announce, listenOnLoopback } from './announce.js';

const clientId = required('PEER_CLIENT_ID');
const clientSecret = required('PEER_CLIENT_SECRET');
const scope = required('PEER_SCOPE');
/** What a pooled refresh token grants: like the service's, an ID token on every refresh. */
const REFRESH_SCOPE = `openid offline_access ${scope}`;
const ACCOUNT_ID = 'bench-peer-user';
/**
 * Room for the largest pool and what its load writes (each refresh stores a new refresh token
 * and access token); emptied before each pool is minted, so memory stays bounded.
 */
const STORE_SIZE = 500_000;
const MAX_POOL = 200_000;

const store = new LRU({ maxSize: STORE_SIZE });
const server = createServer();
const issuer = await listenOnLoopback(server);
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const provider = new Provider(issuer, {
  adapter: (model: string) => new MemoryAdapter(model, store),
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials', 'refresh_token', 'authorization_code'],
      response_types: ['code'],
      redirect_uris: ['https://peer.invalid/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  features: {
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    devInteractions: { enabled: false },
  },
  rotateRefreshToken: true,
  scopes: ['openid', 'offline_access', scope],
  findAccount: (_context, sub) => ({
    accountId: sub,
    claims: () => ({ sub, email: 'bench-peer-user@example.com' }),
  }),
  jwks: {
    keys: [{ ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' }],
  },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
});
const providerCallback = provider.callback();
server.on('request', (request: IncomingMessage, response: ServerResponse) => {
  if (request.url?.startsWith('/bench/')) void answerPool(request, response);
  else void providerCallback(request, response);
});
announce(issuer);

async function answerPool(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const count = Number(new URL(request.url!, issuer).searchParams.get('count'));
  if (request.method !== 'POST' || !Number.isInteger(count) || count < 1 || count > MAX_POOL) {
    response.writeHead(400).end();
    return;
  }
  try {
    store.clear();
    const body = JSON.stringify(await mintRefreshTokens(count));
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
}

async function mintRefreshTokens(count: number): Promise<string[]> {
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error(`client ${clientId} is not registered`);
  const tokens: string[] = [];
  for (let index = 0; index < count; index++) {
    const grant = new provider.Grant({ clientId, accountId: ACCOUNT_ID });
    grant.addOIDCScope(REFRESH_SCOPE);
    const grantId = await grant.save();
    const token = new provider.RefreshToken({
      client,
      accountId: ACCOUNT_ID,
      grantId,
      gty: 'authorization_code',
      scope: REFRESH_SCOPE,
      authTime: Math.floor(Date.now() / 1000),
    });
    tokens.push(await token.save());
  }
  return tokens;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}
