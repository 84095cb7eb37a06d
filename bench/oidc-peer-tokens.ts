import type { RunningPeer } from './peers.js';
import { basic, clientCredentialsForm, FORM } from './scenarios/requests.js';
import type { OidcPeerTokens } from './scenarios/index.js';

/** Tokens of the oidc-provider peer's one client, asked of the running peer. */
export function oidcPeerTokens(
  peer: () => RunningPeer | undefined,
  client: { id: string; secret: string; scope: string },
): OidcPeerTokens {
  const url = () => {
    const running = peer();
    if (!running) throw new Error('the oidc-provider peer is not running');
    return running.url;
  };
  return {
    async refreshTokens(count) {
      const response = await fetch(`${url()}/bench/refresh-tokens?count=${count}`, {
        method: 'POST',
      });
      if (!response.ok) throw new Error(`the peer minted no refresh tokens: ${response.status}`);
      return (await response.json()) as string[];
    },
    async accessToken() {
      const response = await fetch(`${url()}/token`, {
        method: 'POST',
        headers: { authorization: basic(client.id, client.secret), 'content-type': FORM },
        body: clientCredentialsForm(client.scope),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`the peer issued no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
  };
}
