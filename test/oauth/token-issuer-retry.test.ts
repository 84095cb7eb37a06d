import assert from 'node:assert/strict';
import type { AppRow } from '../../src/db/rows.js';
import { StaleFacts } from '../../src/db/group-commit.js';
import type { PresentedClient } from '../../src/oauth/clients/client-credentials.js';
import { TokenIssuer, type TokenIssuerDependencies } from '../../src/oauth/grants/token-issuer.js';
import { OAuthError } from '../../src/oauth/oauth-error.js';

const PRESENTED: PresentedClient = {
  method: 'client_secret_basic',
  clientId: 'c1',
  clientSecret: 's',
};

function app(grantTypes: string): AppRow {
  return {
    id: 'app-1',
    client_id: 'c1',
    owner_user_id: 'owner-1',
    client_type: 'confidential',
    grant_types: grantTypes,
  } as AppRow;
}

/**
 * A TokenIssuer over stand-ins: `cached` is what the credential cache holds (with epoch 1),
 * `stored` what the database holds; the first `staleCommits` stores are refused as stale.
 */
function issuerOver(input: { cached: AppRow; stored: AppRow; staleCommits?: number }) {
  const authentications: string[] = [];
  const stores: Array<number | undefined> = [];
  let staleCommits = input.staleCommits ?? 0;
  const deps = {
    clients: {
      async authenticate(_presented: PresentedClient, options: { fromCache?: boolean } = {}) {
        authentications.push(options.fromCache ? 'cache' : 'database');
        return {
          app: options.fromCache ? input.cached : input.stored,
          method: 'client_secret_basic',
        };
      },
    },
    credentials: {
      factsAsOf: (row: AppRow) => (row === input.cached ? 1 : undefined),
      forget() {},
      async forgetBefore() {},
    },
    signer: {
      async accessToken() {
        return { token: 'signed', jti: 'j', issuedAt: 0, expiresAt: 1 };
      },
    },
    tokens: {
      async insertIssuedAccessToken(_row: unknown, _audit: unknown, factsAsOf?: number) {
        stores.push(factsAsOf);
        if (staleCommits > 0) {
          staleCommits--;
          throw new StaleFacts(2);
        }
      },
    },
    audit: { row: () => ({}), announce() {} },
  } as unknown as TokenIssuerDependencies;
  return { issuer: new TokenIssuer(deps), authentications, stores };
}

const appTokenGrant = (cachedClient: boolean) => ({
  name: 'client_credentials',
  publicClients: false,
  cachedClient,
  handled: [] as AppRow[],
  handle(issuer: TokenIssuer, client: AppRow) {
    this.handled.push(client);
    return issuer.issueAppAccessToken(client, '', null, 'client_credentials');
  },
});

describe('TokenIssuer.issue: stale cached credentials', () => {
  it('a cached client refused (its grants changed elsewhere) is asked again of the database', async () => {
    const stored = app('client_credentials');
    const { issuer, authentications } = issuerOver({ cached: app('refresh_token'), stored });
    const grant = appTokenGrant(true);
    const issued = await issuer.issue(grant, PRESENTED, {});
    assert.equal(issued.access_token, 'signed');
    assert.deepEqual(authentications, ['cache', 'database']);
    assert.deepEqual(grant.handled, [stored]);
  });

  it('a commit refused as stale re-reads the client from the database and stores once more', async () => {
    const cached = app('client_credentials');
    const stored = app('client_credentials');
    const { issuer, authentications, stores } = issuerOver({ cached, stored, staleCommits: 1 });
    const grant = appTokenGrant(true);
    await issuer.issue(grant, PRESENTED, {});
    assert.deepEqual(authentications, ['cache', 'database']);
    assert.deepEqual(grant.handled, [cached, stored]);
    // The second store relies on nothing cached, so nothing can refuse it as stale.
    assert.deepEqual(stores, [1, undefined]);
  });

  it('a grant without the cache authenticates from the database once, and a refusal stands', async () => {
    const { issuer, authentications } = issuerOver({
      cached: app('client_credentials'),
      stored: app('refresh_token'),
    });
    await assert.rejects(
      issuer.issue(appTokenGrant(false), PRESENTED, {}),
      (error: unknown) => error instanceof OAuthError && error.error === 'unauthorized_client',
    );
    assert.deepEqual(authentications, ['database']);
  });
});
