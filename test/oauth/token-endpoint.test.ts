import assert from 'node:assert/strict';
import { createRemoteJWKSet, decodeProtectedHeader, importPKCS8, jwtVerify, SignJWT } from 'jose';
import { ManualClock } from '../../src/clock.js';
import type { SigningKeyRow } from '../../src/db/rows.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { KEY_GRACE_PERIOD_MS } from '../../src/oauth/signing-keys/signing-keys.js';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import {
  REDIRECT_URI,
  basic,
  callApi,
  createOAuthTenant,
  issueCode,
  pkcePair,
  type OAuthTenant,
} from '../support/oauth-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET, startTestService } from '../support/service.js';

describeEachDialect('token endpoint and protected resources', (database) => {
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 12));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let tenant: OAuthTenant;
  let other: OAuthTenant;

  before(async () => {
    service = await startTestService(database(), { clock });
    tenant = await createOAuthTenant(database().db, clock, 'ada');
    other = await createOAuthTenant(database().db, clock, 'bo');
  });
  after(async () => {
    await service?.stop();
  });

  const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    callApi(service.url, 'POST', '/oauth/v2/tokens', { form, headers });
  const asClient = () => basic(tenant.app.client_id, tenant.app.secret);
  const userinfo = (accessToken: string) =>
    callApi(service.url, 'GET', '/v2/api/userinfo', {
      headers: { authorization: `Bearer ${accessToken}` },
    });
  const code = (grant: Parameters<typeof issueCode>[2] extends infer G ? Partial<G> : never = {}) =>
    issueCode(database().db, clock, { app_id: tenant.app.id, user_id: tenant.user.id, ...grant });
  const exchange = async (extra: Record<string, string> = {}, grant = {}) =>
    token(
      {
        grant_type: 'authorization_code',
        code: await code(grant),
        redirect_uri: REDIRECT_URI,
        ...extra,
      },
      asClient(),
    );
  const graphqlStatus = async (accessToken: string) =>
    (
      await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      })
    ).status;

  describe('authorization_code', () => {
    it('issues signed tokens whose claims follow DESIGN §3', async () => {
      const { verifier, challenge } = pkcePair();
      const response = await exchange(
        { code_verifier: verifier },
        { code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-0S6' },
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = response.body;
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 3600);
      assert.equal(body.scope, 'email employer_access offline_access openid');
      assert.equal(body.convid, response.headers.get('x-request-id'));
      assert.ok(body.refresh_token.length >= 43);

      const jwks = createRemoteJWKSet(new URL(`${service.url}/.well-known/keys`));
      const idToken = await jwtVerify(body.id_token, jwks, {
        issuer: service.config.authUrl,
        audience: tenant.app.client_id,
        currentDate: new Date(clock.now()),
      });
      assert.equal(idToken.protectedHeader.alg, 'RS256');
      assert.ok(idToken.protectedHeader.kid);
      assert.equal(idToken.payload.sub, tenant.user.id);
      assert.equal(idToken.payload.azp, tenant.app.client_id);
      assert.equal(idToken.payload.nonce, 'n-0S6');
      assert.equal(idToken.payload.email, tenant.user.email);
      assert.equal(idToken.payload.email_verified, false);
      assert.deepEqual(idToken.payload.employers, [
        { id: tenant.employer.id, name: tenant.employer.name },
      ]);

      const access = await jwtVerify(body.access_token, jwks, {
        issuer: service.config.authUrl,
        audience: service.config.apiUrl,
        typ: 'at+jwt',
        currentDate: new Date(clock.now()),
      });
      assert.equal(access.protectedHeader.alg, 'ES256');
      assert.deepEqual(Object.keys(access.payload).sort(), [
        'app_account',
        'aud',
        'azp',
        'client_id',
        'exp',
        'iat',
        'iss',
        'jti',
        'scope',
        'sub',
      ]);
      assert.equal(access.payload.sub, `user:${tenant.user.id}`);
      assert.equal(access.payload.aud, service.config.apiUrl);
      assert.equal(access.payload.azp, tenant.app.client_id);
      assert.equal(access.payload.client_id, tenant.app.client_id);
      assert.equal(access.payload.app_account, tenant.user.id);
      assert.equal(access.payload.exp! - access.payload.iat!, 3600);
      assert.equal(access.payload.emp, undefined);
      assert.ok(access.payload.jti);

      const info = await userinfo(body.access_token);
      assert.deepEqual(info.body, {
        sub: tenant.user.id,
        email: tenant.user.email,
        email_verified: false,
        employers: [{ id: tenant.employer.id, name: tenant.employer.name }],
      });
    });

    it('issues an employer-scoped token for an employer of the user', async () => {
      const response = await exchange({ employer: tenant.employer.id });
      assert.equal(response.status, 200);
      const [, payload] = response.body.access_token.split('.');
      assert.equal(
        JSON.parse(Buffer.from(payload, 'base64url').toString()).emp,
        tenant.employer.id,
      );
    });

    it('refuses an employer the user does not belong to with Invalid request', async () => {
      const response = await exchange({ employer: tenant.foreignEmployer.id });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        error: 'invalid_request',
        error_description: 'Invalid request',
      });
    });

    it('answers a replayed code with invalid_grant and revokes what the code issued', async () => {
      const issued = await code();
      const first = await token(
        { grant_type: 'authorization_code', code: issued, redirect_uri: REDIRECT_URI },
        asClient(),
      );
      assert.equal(first.status, 200);
      assert.equal((await userinfo(first.body.access_token)).status, 200);

      const replay = await token(
        { grant_type: 'authorization_code', code: issued, redirect_uri: REDIRECT_URI },
        asClient(),
      );
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');

      const after = await userinfo(first.body.access_token);
      assert.equal(after.status, 401);
      assert.match(after.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      assert.equal(await graphqlStatus(first.body.access_token), 401);
      const refreshed = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
        asClient(),
      );
      assert.equal(refreshed.body.error, 'invalid_grant');
      const [audit] = await database().db('audit_events').where({ type: 'code.replayed' });
      assert.ok(audit, 'code replay is audited');
      assert.ok(!String(audit.details).includes(issued), 'the audit trail never holds the code');
    });

    it('binds the code to its client, redirect_uri and PKCE challenge', async () => {
      const otherClient = await token(
        { grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT_URI },
        basic(other.app.client_id, other.app.secret),
      );
      assert.deepEqual([otherClient.status, otherClient.body.error], [400, 'invalid_grant']);

      const wrongRedirect = await exchange({ redirect_uri: 'http://localhost:8080/other' });
      assert.equal(wrongRedirect.body.error, 'invalid_grant');
      assert.match(wrongRedirect.body.error_description, /redirect_uri/);

      const { challenge } = pkcePair();
      const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
      const wrongVerifier = await exchange({ code_verifier: pkcePair().verifier }, pkce);
      assert.equal(wrongVerifier.body.error, 'invalid_grant');
      assert.match(wrongVerifier.body.error_description, /code_verifier does not match/);

      const missingVerifier = await exchange({}, pkce);
      assert.equal(missingVerifier.body.error, 'invalid_grant');
      assert.match(missingVerifier.body.error_description, /code_verifier is required/);
    });

    it('refuses a verifier when the request had no challenge', async () => {
      const response = await exchange({ code_verifier: pkcePair().verifier });
      assert.equal(response.body.error, 'invalid_grant');
      assert.match(response.body.error_description, /no code_challenge/);
    });

    it('refuses a code older than 10 minutes', async () => {
      const issued = await code();
      clock.advance(10 * 60 * 1000);
      const response = await token(
        { grant_type: 'authorization_code', code: issued, redirect_uri: REDIRECT_URI },
        asClient(),
      );
      assert.equal(response.body.error, 'invalid_grant');
      assert.match(response.body.error_description, /expired/);
    });

    it('serves public clients with PKCE and client_id alone', async () => {
      const { verifier, challenge } = pkcePair();
      const issued = await code({
        app_id: tenant.publicApp.id,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const response = await token({
        grant_type: 'authorization_code',
        code: issued,
        redirect_uri: REDIRECT_URI,
        client_id: tenant.publicApp.client_id,
        code_verifier: verifier,
      });
      assert.equal(response.status, 200);
      const withoutPkce = await token({
        grant_type: 'authorization_code',
        code: await code({ app_id: tenant.publicApp.id }),
        redirect_uri: REDIRECT_URI,
        client_id: tenant.publicApp.client_id,
      });
      assert.equal(withoutPkce.body.error, 'invalid_grant');
    });

    it('names the missing parameter and refuses unknown grant types', async () => {
      const missing = await token(
        { grant_type: 'authorization_code', redirect_uri: REDIRECT_URI },
        asClient(),
      );
      assert.deepEqual(missing.body, {
        error: 'invalid_request',
        error_description: 'code is required',
      });
      const unknown = await token({ grant_type: 'password' }, asClient());
      assert.equal(unknown.body.error, 'unsupported_grant_type');
      const none = await token({}, asClient());
      assert.deepEqual(none.body, {
        error: 'invalid_request',
        error_description: 'grant_type is required',
      });
    });
  });

  describe('client authentication', () => {
    it('refuses a bad secret with 401 invalid_client and a Basic challenge', async () => {
      const response = await token(
        { grant_type: 'client_credentials' },
        basic(tenant.app.client_id, 'wrong'),
      );
      assert.equal(response.status, 401);
      assert.equal(response.body.error, 'invalid_client');
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic /);
      const inBody = await token({
        grant_type: 'client_credentials',
        client_id: tenant.app.client_id,
        client_secret: 'wrong',
      });
      assert.equal(inBody.status, 401);
      const unknown = await token({
        grant_type: 'client_credentials',
        client_id: 'nobody',
        client_secret: 'x',
      });
      assert.equal(unknown.status, 401);
    });

    it('accepts the secret in the body, and refuses two methods at once', async () => {
      const body = await token({
        grant_type: 'client_credentials',
        client_id: tenant.app.client_id,
        client_secret: tenant.app.secret,
      });
      assert.equal(body.status, 200);
      const both = await token(
        { grant_type: 'client_credentials', client_secret: tenant.app.secret },
        asClient(),
      );
      assert.equal(both.body.error, 'invalid_request');
    });
  });

  describe('refresh_token', () => {
    it('rotates, narrows scope, refuses widening, and switches employer', async () => {
      const first = await exchange({}, { scope: 'email employer_access offline_access' });
      const narrowed = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, scope: 'email' },
        asClient(),
      );
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.scope, 'email');
      assert.notEqual(narrowed.body.refresh_token, first.body.refresh_token);
      assert.ok(narrowed.body.id_token);

      const widened = await token(
        {
          grant_type: 'refresh_token',
          refresh_token: narrowed.body.refresh_token,
          scope: 'email interviews.schedule',
        },
        asClient(),
      );
      assert.equal(widened.body.error, 'invalid_scope');

      const switched = await token(
        {
          grant_type: 'refresh_token',
          refresh_token: narrowed.body.refresh_token,
          employer: tenant.employer.id,
        },
        asClient(),
      );
      assert.equal(switched.status, 200);
      const [, payload] = switched.body.access_token.split('.');
      assert.equal(
        JSON.parse(Buffer.from(payload, 'base64url').toString()).emp,
        tenant.employer.id,
      );

      const foreign = await token(
        {
          grant_type: 'refresh_token',
          refresh_token: switched.body.refresh_token,
          employer: tenant.foreignEmployer.id,
        },
        asClient(),
      );
      assert.deepEqual(foreign.body, {
        error: 'invalid_request',
        error_description: 'Invalid request',
      });
    });

    it('revokes the whole family, newest token included, when a used token comes back', async () => {
      const first = await exchange();
      const second = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
        asClient(),
      );
      const third = await token(
        { grant_type: 'refresh_token', refresh_token: second.body.refresh_token },
        asClient(),
      );
      assert.equal(third.status, 200);

      const reuse = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
        asClient(),
      );
      assert.equal(reuse.body.error, 'invalid_grant');
      const newest = await token(
        { grant_type: 'refresh_token', refresh_token: third.body.refresh_token },
        asClient(),
      );
      assert.equal(newest.body.error, 'invalid_grant');
      assert.equal((await userinfo(third.body.access_token)).status, 401);
    });

    it('lets exactly one of two concurrent refreshes with one token win', async () => {
      const first = await exchange();
      const form = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token };
      const results = await Promise.all([token(form, asClient()), token(form, asClient())]);
      assert.deepEqual(results.map((result) => result.status).sort(), [200, 400]);
    });

    it('refuses a refresh token presented by another client without consuming it', async () => {
      const first = await exchange();
      const stolen = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
        basic(other.app.client_id, other.app.secret),
      );
      assert.equal(stolen.body.error, 'invalid_grant');
      const rightful = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
        asClient(),
      );
      assert.equal(rightful.status, 200);
    });
  });

  describe('client_credentials', () => {
    it('issues app tokens, employer-scoped for employers of the owner only', async () => {
      const plain = await token(
        { grant_type: 'client_credentials', scope: 'employer_access' },
        asClient(),
      );
      assert.equal(plain.status, 200);
      assert.equal(plain.body.refresh_token, undefined);
      assert.equal(plain.body.id_token, undefined);
      const info = await callApi(service.url, 'GET', '/v2/api/appinfo', {
        headers: { authorization: `Bearer ${plain.body.access_token}` },
      });
      assert.deepEqual(info.body, {
        employers: [{ id: tenant.employer.id, name: tenant.employer.name }],
      });

      const employer = await token(
        {
          grant_type: 'client_credentials',
          scope: 'employer_access',
          employer: tenant.employer.id,
        },
        asClient(),
      );
      assert.equal(employer.status, 200);
      assert.equal(employer.body.scope, 'employer_access');
      const foreign = await token(
        {
          grant_type: 'client_credentials',
          scope: 'employer_access',
          employer: tenant.foreignEmployer.id,
        },
        asClient(),
      );
      assert.deepEqual(foreign.body, {
        error: 'invalid_request',
        error_description: 'Invalid request',
      });
      const withoutScope = await token(
        { grant_type: 'client_credentials', employer: tenant.employer.id },
        asClient(),
      );
      assert.equal(withoutScope.body.error, 'invalid_scope');
      const email = await token({ grant_type: 'client_credentials', scope: 'email' }, asClient());
      assert.equal(email.body.error, 'invalid_scope');
    });

    it('accepts a JSON body as well as a form', async () => {
      const response = await fetch(`${service.url}/oauth/v2/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...asClient() },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          scope: 'employer_access',
          employer: tenant.employer.id,
        }),
      });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { scope: string }).scope, 'employer_access');
      const text = await fetch(`${service.url}/oauth/v2/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...asClient() },
        body: 'grant_type=client_credentials',
      });
      assert.equal(text.status, 415);
    });

    it('gives userinfo 403 for an app token, and appinfo 403 for a user token', async () => {
      const app = await token(
        { grant_type: 'client_credentials', scope: 'employer_access' },
        asClient(),
      );
      const response = await userinfo(app.body.access_token);
      assert.equal(response.status, 403);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
      const user = await exchange();
      const appinfo = await callApi(service.url, 'GET', '/v2/api/appinfo', {
        headers: { authorization: `Bearer ${user.body.access_token}` },
      });
      assert.equal(appinfo.status, 403);
    });
  });

  describe('bearer tokens', () => {
    it('refuses missing, malformed, unsigned and expired tokens', async () => {
      const missing = await callApi(service.url, 'GET', '/v2/api/userinfo');
      assert.equal(missing.status, 401);
      assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="hiring-partner-api"');

      const issued = await exchange();
      const [header, payload] = issued.body.access_token.split('.');
      const unsigned = `${Buffer.from(JSON.stringify({ ...decodeProtectedHeader(issued.body.access_token), alg: 'none' })).toString('base64url')}.${payload}.`;
      const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: 'user:someone-else' })).toString('base64url')}.${issued.body.access_token.split('.')[2]}`;
      for (const bad of ['not-a-jwt', 'a.b.c', unsigned, tampered, issued.body.id_token]) {
        const response = await userinfo(bad);
        assert.equal(response.status, 401, bad);
        assert.equal(await graphqlStatus(bad), 401);
      }

      assert.equal((await userinfo(issued.body.access_token)).status, 200);
      clock.advance(3600 * 1000);
      const expired = await userinfo(issued.body.access_token);
      assert.equal(expired.status, 401);
      assert.match(expired.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    });

    it('stops a revoked token at once everywhere', async () => {
      const issued = await exchange();
      assert.equal((await userinfo(issued.body.access_token)).status, 200);
      const revoked = await callApi(service.url, 'POST', '/oauth/v2/revoke', {
        form: { token: issued.body.access_token },
        headers: asClient(),
      });
      assert.equal(revoked.status, 200);
      assert.equal((await userinfo(issued.body.access_token)).status, 401);
      assert.equal(await graphqlStatus(issued.body.access_token), 401);

      const revokedRefresh = await callApi(service.url, 'POST', '/oauth/v2/revoke', {
        form: { token: issued.body.refresh_token, token_type_hint: 'refresh_token' },
        headers: asClient(),
      });
      assert.equal(revokedRefresh.status, 200);
      const refreshed = await token(
        { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token },
        asClient(),
      );
      assert.equal(refreshed.body.error, 'invalid_grant');
      const unknown = await callApi(service.url, 'POST', '/oauth/v2/revoke', {
        form: { token: 'nonsense' },
        headers: asClient(),
      });
      assert.equal(unknown.status, 200);
    });

    it('introspects the client’s own tokens and nothing else', async () => {
      const issued = await exchange({ employer: tenant.employer.id });
      const introspect = (tokenValue: string, headers = asClient()) =>
        callApi(service.url, 'POST', '/oauth/v2/introspect', {
          form: { token: tokenValue },
          headers,
        });
      const active = await introspect(issued.body.access_token);
      assert.equal(active.body.active, true);
      assert.equal(active.body.client_id, tenant.app.client_id);
      assert.equal(active.body.employer, tenant.employer.id);
      assert.equal(active.body.sub, `user:${tenant.user.id}`);
      assert.equal(active.body.aud, service.config.apiUrl);
      const refresh = await introspect(issued.body.refresh_token);
      assert.equal(refresh.body.token_type, 'refresh_token');
      const foreign = await introspect(
        issued.body.access_token,
        basic(other.app.client_id, other.app.secret),
      );
      assert.deepEqual(foreign.body, { active: false });
      assert.deepEqual((await introspect('garbage')).body, { active: false });
    });
  });

  describe('signing key rotation', () => {
    it('keeps old tokens verifying until their key retires, then refuses its signatures', async () => {
      const before = await exchange();
      const [oldKey] = await database()
        .db('signing_keys')
        .where({ alg: 'ES256' })
        .whereNull('superseded_at');
      let output = '';
      const io = {
        stdout: (text: string) => void (output += text),
        stderr: (text: string) => void (output += text),
      };
      const code = await runProgram(['--json', 'keys', 'rotate'], io, async () =>
        testCliServices(database().db, { clock }),
      );
      assert.equal(code, 0, output);
      const rotated = JSON.parse(output).rotated;
      assert.equal(rotated.length, 2);
      const newKey = rotated.find((key: { replaced: string }) => key.replaced === oldKey.kid);
      assert.ok(newKey);
      const activatesAt = Date.parse(newKey.activates_at);
      assert.equal(activatesAt, clock.now() + 120_000, 'signs after the default delay');

      clock.advance(activatesAt - clock.now()); // the new key signs from here on
      assert.equal(
        (await userinfo(before.body.access_token)).status,
        200,
        'old token still verifies',
      );
      const after = await exchange();
      assert.equal(decodeProtectedHeader(after.body.access_token).kid, newKey.kid);
      let jwks = (await callApi(service.url, 'GET', '/.well-known/keys')).body;
      assert.ok(
        jwks.keys.some((key: { kid: string }) => key.kid === oldKey.kid),
        'old key still published',
      );

      clock.advance(KEY_GRACE_PERIOD_MS);
      jwks = (await callApi(service.url, 'GET', '/.well-known/keys')).body;
      assert.ok(
        !jwks.keys.some((key: { kid: string }) => key.kid === oldKey.kid),
        'retired key unpublished',
      );
      // A fresh, otherwise valid token signed with the retired key must not verify.
      const row = oldKey as SigningKeyRow;
      const privateKey = await importPKCS8(
        new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'signing-keys').open(row.private_key_encrypted),
        'ES256',
      );
      const now = Math.floor(clock.now() / 1000);
      const forged = await new SignJWT({
        azp: tenant.app.client_id,
        client_id: tenant.app.client_id,
        scope: 'email',
        app_account: tenant.user.id,
      })
        .setProtectedHeader({ alg: 'ES256', kid: row.kid, typ: 'at+jwt' })
        .setIssuer(service.config.authUrl)
        .setAudience(service.config.apiUrl)
        .setSubject(`user:${tenant.user.id}`)
        .setJti(decodeJwtId(after.body.access_token))
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(privateKey);
      assert.equal((await userinfo(forged)).status, 401);
      assert.equal((await userinfo(after.body.access_token)).status, 401, 'expired by now');
    });
  });

  describe('discovery', () => {
    it('publishes both metadata documents with the implemented features only', async () => {
      for (const path of [
        '/.well-known/openid-configuration',
        '/.well-known/oauth-authorization-server',
      ] as const) {
        const { body } = await callApi(service.url, 'GET', path);
        assert.equal(body.issuer, service.config.authUrl);
        assert.equal(body.token_endpoint, `${service.config.apiUrl}/oauth/v2/tokens`);
        assert.deepEqual(body.code_challenge_methods_supported, ['S256']);
        assert.deepEqual(body.id_token_signing_alg_values_supported, ['RS256']);
        assert.equal(body.authorization_response_iss_parameter_supported, true);
      }
    });
  });
});

describeEachDialect('token endpoint rate limit', (database) => {
  it('answers 429 with Retry-After once a client exceeds its budget', async () => {
    const clock = new ManualClock();
    const service = await startTestService(database(), {
      env: { RATE_LIMIT_TOKEN_MAX: '3' },
      clock,
    });
    try {
      const tenant = await createOAuthTenant(database().db, clock);
      const statuses = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
          form: { grant_type: 'client_credentials' },
          headers: basic(tenant.app.client_id, tenant.app.secret),
        });
        statuses.push(response.status);
        if (response.status === 429)
          assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    } finally {
      await service.stop();
    }
  });
});

function decodeJwtId(jwt: string): string {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).jti;
}
