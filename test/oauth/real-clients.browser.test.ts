import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { systemClock } from '../../src/clock.js';
import { contractChecks, contractFetch } from '../support/contract-fetch.js';
import {
  BROWSER_TEST_TIMEOUT_MS,
  allowBrowserTestTime,
  captureRedirect,
  completeAuthorization,
  launchChromium,
} from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import {
  PASSWORD,
  REDIRECT_URI,
  createOAuthTenant,
  type OAuthTenant,
} from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';

const SCOPE = 'openid email offline_access employer_access';
let insecure: {
  [oauth.allowInsecureRequests]: true;
  [oauth.customFetch]: ReturnType<typeof contractFetch>;
};

describeEachDialect('hosted-platform client libraries, unchanged', (database) => {
  let browser: Browser | null;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let tenant: OAuthTenant;
  let checksBefore = 0;

  allowBrowserTestTime();
  before(async function () {
    this.timeout(BROWSER_TEST_TIMEOUT_MS);
    browser = await launchChromium();
    if (!browser) this.skip();
    checksBefore = contractChecks();
    service = await startTestService(database());
    tenant = await createOAuthTenant(database().db, systemClock, 'ada');
    insecure = {
      [oauth.allowInsecureRequests]: true,
      [oauth.customFetch]: contractFetch(service.config.authUrl),
    };
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
  });

  /** Opens the authorization URL in a fresh browser context, plays the user, returns the redirect. */
  async function authorizeInBrowser(url: URL, employerName: string | null): Promise<URL> {
    const context = await browser!.newContext();
    try {
      const page = await context.newPage();
      const redirected = captureRedirect(page, REDIRECT_URI);
      await page.goto(url.href);
      return await completeAuthorization(page, redirected, {
        email: tenant.user.email,
        password: PASSWORD,
        employerName,
      });
    } finally {
      await context.close();
    }
  }

  async function interviewQueryStatus(
    accessToken: string,
  ): Promise<{ status: number; code?: string }> {
    const response = await contractFetch(service.config.authUrl)(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ virtualInterviewEvents(input: { ids: ["none"] }) { events { id } } }',
      }),
    });
    const body = (await response.json()) as { errors?: Array<{ extensions: { code: string } }> };
    return { status: response.status, code: body.errors?.[0]?.extensions.code };
  }

  it('openid-client: discovery, PKCE, select_employer, employer in the body, ID token, userinfo, refresh and client credentials', async () => {
    const config = await client.discovery(
      new URL(service.config.authUrl),
      tenant.app.client_id,
      tenant.app.secret,
      client.ClientSecretBasic(tenant.app.secret),
      { execute: [client.allowInsecureRequests] },
    );
    config[client.customFetch] = contractFetch(service.config.authUrl);
    client.enableNonRepudiationChecks(config);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      prompt: 'select_employer',
    });

    const callback = await authorizeInBrowser(url, tenant.employer.name);
    assert.equal(callback.searchParams.get('iss'), service.config.authUrl);
    const employer = callback.searchParams.get('employer');
    assert.equal(employer, tenant.employer.id);

    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      },
      { employer: employer! },
    );
    const claims = tokens.claims()!;
    assert.equal(claims.sub, tenant.user.id);
    assert.equal(claims.email, tenant.user.email);
    assert.deepEqual(claims.employers, [{ id: tenant.employer.id, name: tenant.employer.name }]);
    assert.ok(tokens.refresh_token);
    assert.equal(tokens.expires_in, 3600);
    assert.equal(
      (await interviewQueryStatus(tokens.access_token)).status,
      200,
      'employer token reaches GraphQL',
    );

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.equal(userinfo.email, tenant.user.email);

    // Switch employer on refresh: here, back to no employer, then to the employer again.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, {
      employer: tenant.employer.id,
    });
    assert.ok(refreshed.id_token, 'refresh carries an ID token');
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    const refreshedClaims = refreshed.claims()!;
    assert.equal(refreshedClaims.sub, tenant.user.id);

    const appToken = await client.clientCredentialsGrant(config, {
      scope: 'employer_access',
      employer: tenant.employer.id,
    });
    assert.equal(appToken.scope, 'employer_access');
    assert.equal((await interviewQueryStatus(appToken.access_token)).status, 200);
  });

  it('openid-client: the employer query parameter is optional and a token without one is FORBIDDEN at GraphQL', async () => {
    const config = await client.discovery(
      new URL(service.config.authUrl),
      tenant.app.client_id,
      tenant.app.secret,
      undefined,
      { execute: [client.allowInsecureRequests] },
    );
    config[client.customFetch] = contractFetch(service.config.authUrl);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      prompt: 'select_employer',
    });
    const callback = await authorizeInBrowser(url, null);
    assert.equal(callback.searchParams.has('employer'), false);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.deepEqual(await interviewQueryStatus(tokens.access_token), {
      status: 200,
      code: 'FORBIDDEN',
    });
  });

  it('oauth4webapi with ID-token signature checks: code + PKCE, refresh with employer, client credentials', async () => {
    const issuer = new URL(service.config.authUrl);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, insecure),
    );
    const oauthClient: oauth.Client = { client_id: tenant.app.client_id };
    const auth = oauth.ClientSecretPost(tenant.app.secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: oauthClient.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: SCOPE,
      state,
      nonce,
      prompt: 'select_employer',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const callback = await authorizeInBrowser(url, tenant.employer.name);
    const params = oauth.validateAuthResponse(as, oauthClient, callback, state);
    const codeResponse = await oauth.authorizationCodeGrantRequest(
      as,
      oauthClient,
      auth,
      params,
      REDIRECT_URI,
      verifier,
      {
        ...insecure,
        additionalParameters: { employer: callback.searchParams.get('employer')! },
      },
    );
    const result = await oauth.processAuthorizationCodeResponse(as, oauthClient, codeResponse, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    await oauth.validateApplicationLevelSignature(as, codeResponse, insecure);
    assert.equal(oauth.getValidatedIdTokenClaims(result)!.sub, tenant.user.id);

    const refreshResponse = await oauth.refreshTokenGrantRequest(
      as,
      oauthClient,
      auth,
      result.refresh_token!,
      {
        ...insecure,
        additionalParameters: { employer: tenant.employer.id },
      },
    );
    const refreshed = await oauth.processRefreshTokenResponse(as, oauthClient, refreshResponse);
    await oauth.validateApplicationLevelSignature(as, refreshResponse, insecure);
    assert.equal((await interviewQueryStatus(refreshed.access_token)).status, 200);

    const ccResponse = await oauth.clientCredentialsGrantRequest(
      as,
      oauthClient,
      auth,
      new URLSearchParams({ scope: 'employer_access', employer: tenant.employer.id }),
      insecure,
    );
    const appToken = await oauth.processClientCredentialsResponse(as, oauthClient, ccResponse);
    const appinfo = await contractFetch(service.config.authUrl)(
      `${service.config.authUrl}/v2/api/appinfo`,
      {
        headers: { authorization: `Bearer ${appToken.access_token}` },
      },
    );
    assert.deepEqual(await appinfo.json(), {
      employers: [{ id: tenant.employer.id, name: tenant.employer.name }],
    });
  });

  it('checked every response the client libraries received against openapi.yaml', () => {
    const checked = contractChecks() - checksBefore;
    assert.ok(checked >= 10, `only ${checked} responses checked`);
  });
});
