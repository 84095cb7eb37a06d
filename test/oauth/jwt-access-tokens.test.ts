import assert from 'node:assert/strict';
import { decodeJwt, decodeProtectedHeader, importPKCS8, SignJWT, type JWTPayload } from 'jose';
import * as oauth from 'oauth4webapi';
import { systemClock } from '../../src/clock.js';
import type { SigningKeyRow } from '../../src/db/rows.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { describeEachDialect } from '../support/databases.js';
import {
  REDIRECT_URI,
  basic,
  callApi,
  createOAuthTenant,
  issueCode,
  type OAuthTenant,
} from '../support/oauth-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET, startTestService } from '../support/service.js';

/** The API host differs from the issuer here, so a token naming the issuer as audience would fail. */
const API_URL = 'https://api.hiring.example';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

describeEachDialect('RFC 9068 access tokens', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let tenant: OAuthTenant;
  let as: oauth.AuthorizationServer;

  before(async () => {
    service = await startTestService(database(), { env: { API_URL } });
    tenant = await createOAuthTenant(database().db, systemClock, 'ada');
    const issuer = new URL(service.config.authUrl);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, insecure),
    );
  });
  after(async () => {
    await service?.stop();
  });

  const tokenRequest = async (form: Record<string, string>) => {
    const response = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form,
      headers: basic(tenant.app.client_id, tenant.app.secret),
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as { access_token: string };
  };
  const clientCredentialsToken = async () =>
    (await tokenRequest({ grant_type: 'client_credentials', scope: 'employer_access' }))
      .access_token;
  const authorizationCodeToken = async () => {
    const code = await issueCode(database().db, systemClock, {
      app_id: tenant.app.id,
      user_id: tenant.user.id,
    });
    const body = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      employer: tenant.employer.id,
    });
    return body.access_token;
  };
  /** What a resource server receives: an API request with the token in the header. */
  const apiRequest = (accessToken: string) =>
    new Request(`${API_URL}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
    });
  const userinfoStatus = async (accessToken: string) =>
    (
      await callApi(service.url, 'GET', '/v2/api/userinfo', {
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).status;

  for (const [grant, issue] of [
    ['client credentials', clientCredentialsToken],
    ['authorization code', authorizationCodeToken],
  ] as const) {
    it(`passes oauth4webapi's strict validateJwtAccessToken (${grant})`, async () => {
      const token = await issue();
      const claims = await oauth.validateJwtAccessToken(as, apiRequest(token), API_URL, insecure);
      assert.equal(claims.iss, service.config.authUrl);
      assert.equal(claims.aud, API_URL);
      assert.equal(claims.client_id, tenant.app.client_id);
      assert.equal(claims.azp, tenant.app.client_id);
      assert.equal(claims.app_account, tenant.user.id);
      assert.equal(claims.exp - claims.iat, 3600);
      for (const claim of ['sub', 'scope', 'jti']) assert.equal(typeof claims[claim], 'string');
    });
  }

  it('keeps the employer claim on employer-scoped tokens', async () => {
    const claims = await oauth.validateJwtAccessToken(
      as,
      apiRequest(await authorizationCodeToken()),
      API_URL,
      insecure,
    );
    assert.equal(claims.emp, tenant.employer.id);
    assert.equal(claims.sub, `user:${tenant.user.id}`);
  });

  it('advertises the audience as the resource of its RFC 9728 metadata', async () => {
    const response = await callApi(service.url, 'GET', '/.well-known/oauth-protected-resource');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      resource: API_URL,
      authorization_servers: [service.config.authUrl],
      scopes_supported: ['employer_access', 'interviews.schedule'],
      bearer_methods_supported: ['header'],
      resource_name: 'Hiring partner API',
    });
    // oauth4webapi checks `resource` against the identifier the metadata was looked up for.
    const metadata = await oauth.processResourceDiscoveryResponse(
      new URL(API_URL),
      new Response(JSON.stringify(response.body), {
        headers: { 'content-type': 'application/json' },
      }),
    );
    assert.equal(metadata.resource, decodeJwt(await clientCredentialsToken()).aud);
  });

  it('introspects an access token with its client_id and aud', async () => {
    const response = await callApi(service.url, 'POST', '/oauth/v2/introspect', {
      form: { token: await clientCredentialsToken() },
      headers: basic(tenant.app.client_id, tenant.app.secret),
    });
    assert.equal(response.body.active, true);
    assert.equal(response.body.client_id, tenant.app.client_id);
    assert.equal(response.body.aud, API_URL);
  });

  describe('our own verifier', () => {
    /** Re-signs an issued token's claims, changed by `edit`, with the service's own key. */
    async function resign(token: string, edit: (claims: JWTPayload) => JWTPayload) {
      const { kid } = decodeProtectedHeader(token);
      const row: SigningKeyRow = await database().db('signing_keys').where({ kid }).first();
      const key = await importPKCS8(
        new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'signing-keys').open(row.private_key_encrypted),
        'ES256',
      );
      return new SignJWT(edit(decodeJwt(token)))
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
        .sign(key);
    }

    it('accepts the token as issued, re-signed unchanged', async () => {
      const token = await authorizationCodeToken();
      assert.equal(await userinfoStatus(await resign(token, (claims) => claims)), 200);
    });

    it('rejects a token whose aud is another resource, everywhere', async () => {
      const token = await authorizationCodeToken();
      for (const aud of ['https://other.example', [service.config.authUrl], []]) {
        const foreign = await resign(token, (claims) => ({ ...claims, aud }));
        assert.equal(await userinfoStatus(foreign), 401, JSON.stringify(aud));
        const graphql = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${foreign}`, 'content-type': 'application/json' },
          body: '{"query":"{ __typename }"}',
        });
        assert.equal(graphql.status, 401);
        const introspected = await callApi(service.url, 'POST', '/oauth/v2/introspect', {
          form: { token: foreign },
          headers: basic(tenant.app.client_id, tenant.app.secret),
        });
        assert.deepEqual(introspected.body, { active: false });
      }
      const alongsideOthers = await resign(token, (claims) => ({
        ...claims,
        aud: ['https://other.example', API_URL],
      }));
      assert.equal(await userinfoStatus(alongsideOthers), 200, 'an audience list naming us');
    });

    it('accepts a token of the previous release (neither aud nor client_id) until it expires', async () => {
      const token = await authorizationCodeToken();
      const legacy = await resign(
        token,
        ({ aud: _aud, client_id: _clientId, ...claims }) => claims,
      );
      assert.equal(await userinfoStatus(legacy), 200);
      const halfUpgraded = await resign(token, ({ aud: _aud, ...claims }) => claims);
      assert.equal(
        await userinfoStatus(halfUpgraded),
        401,
        'client_id without aud was never issued',
      );
    });
  });
});
