import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import { systemClock } from '../../src/clock.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, callApi, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/** What a refused bearer token looks like to the caller and in the log. */
interface Refusal {
  status: number;
  description: string;
  challenge: string;
}

/**
 * Issue 18, item 7: every 401 `invalid_token` says why (RFC 6750 `error_description`, in the
 * WWW-Authenticate challenge and the JSON body; the GraphQL UNAUTHENTICATED message), and the
 * log line of the refusal says it too, never with the token. Against the production default:
 * the built service, NODE_ENV=production, two workers.
 */
describeEachDialect('bearer token refusals name their reason (2-worker cluster)', (database) => {
  let service: ServiceProcess;
  let tenant: OAuthTenant;
  /** One token per reason, made before the tests run. */
  const tokens = new Map<string, string>();

  before(async function () {
    this.timeout(180_000);
    service = await startServiceProcess(database(), { LOG_LEVEL: 'info' }, 'cluster');
    tenant = await createOAuthTenant(database().db, systemClock, 'refusals');
    const cli = testCliServices(database().db, {
      env: { AUTH_URL: service.url, API_URL: service.url },
    });
    const issue = () =>
      cli.sandboxTokens.issue({
        clientId: tenant.app.client_id,
        userEmail: tenant.user.email,
        employerId: tenant.employer.id,
      });
    const valid = await issue();
    const revoked = await issue();
    const revocation = await callApi(service.url, 'POST', '/oauth/v2/revoke', {
      form: { token: revoked.access_token, token_type_hint: 'access_token' },
      headers: basic(tenant.app.client_id, tenant.app.secret),
    });
    assert.equal(revocation.status, 200);

    const ours = await cli.signingKeys.signer('ES256');
    const now = Math.floor(Date.now() / 1000);
    const sign = async (
      changes: { header?: Record<string, unknown>; claims?: Record<string, unknown> } = {},
      key: { kid: string; key: Parameters<SignJWT['sign']>[0] } = ours,
    ) =>
      new SignJWT({
        sub: `user:${tenant.user.id}`,
        azp: tenant.app.client_id,
        client_id: tenant.app.client_id,
        scope: 'openid email',
        app_account: tenant.user.id,
        jti: randomUUID(),
        iss: service.url,
        aud: service.url,
        iat: now,
        exp: now + 600,
        ...changes.claims,
      })
        .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt', ...changes.header })
        .sign(key.key);
    const foreign = await generateKeyPair('ES256');
    const [header, payload, signature] = valid.access_token.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());

    tokens.set('malformed', 'not-a-jwt');
    tokens.set('bad_signature', [header, tamper(forged), signature].join('.'));
    tokens.set(
      'unknown_key',
      await sign({}, { kid: 'retired-or-foreign', key: foreign.privateKey }),
    );
    tokens.set('expired', await sign({ claims: { iat: now - 7200, exp: now - 3600 } }));
    tokens.set('wrong_issuer', await sign({ claims: { iss: 'http://localhost:3000' } }));
    tokens.set('wrong_audience', await sign({ claims: { aud: 'https://api.elsewhere.example' } }));
    tokens.set('wrong_type', await sign({ header: { typ: 'JWT' } }));
    tokens.set('id_token', valid.id_token!);
    tokens.set('revoked', revoked.access_token);
    tokens.set('unknown_token', await sign());
    tokens.set('valid', valid.access_token);
  });
  after(async () => {
    await service?.stop();
  });

  /** What each reason must say (a fragment of the description). */
  const REASONS: Array<[reason: string, says: RegExp]> = [
    ['malformed', /is malformed: not a JWT/],
    ['bad_signature', /signature does not verify/],
    ['unknown_key', /signed with a key this server does not know \(kid retired-or-foreign\)/],
    ['expired', /expired at \d{4}-\d\d-\d\dT/],
    [
      'wrong_issuer',
      /issued by http:\/\/localhost:3000, not by this server \(http:\/\/127\.0\.0\.1:\d+\)/,
    ],
    ['wrong_audience', /for https:\/\/api\.elsewhere\.example, not for this API/],
    ['wrong_type', /typ JWT, not at\+jwt/],
    ['id_token', /is an ID token/],
    ['revoked', /was revoked/],
    ['unknown_token', /this server has no record of it/],
  ];

  async function refusalAt(endpoint: string, token: string, requestId: string): Promise<Refusal> {
    const headers = { authorization: `Bearer ${token}`, 'x-request-id': requestId };
    if (endpoint === '/graphql') {
      const response = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      const body = (await response.json()) as {
        data: null;
        errors: Array<{ message: string; extensions: { code: string } }>;
      };
      assert.equal(body.data, null);
      assert.equal(body.errors[0]!.extensions.code, 'UNAUTHENTICATED');
      return {
        status: response.status,
        description: body.errors[0]!.message,
        challenge: response.headers.get('www-authenticate') ?? '',
      };
    }
    const response = await callApi(service.url, 'GET', endpoint, { headers });
    assert.equal(response.body.error, 'invalid_token', JSON.stringify(response.body));
    return {
      status: response.status,
      description: response.body.error_description,
      challenge: response.headers.get('www-authenticate') ?? '',
    };
  }

  /** The log line of the refusal, found by the request id (lines are written asynchronously). */
  async function loggedRefusal(requestId: string): Promise<Record<string, unknown> | undefined> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const line = service
        .output()
        .split('\n')
        .filter((text) => text.includes(requestId))
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .find((entry) => typeof entry.msg === 'string' && entry.msg.includes('refused'));
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return undefined;
  }

  it('accepts the valid token (the fixtures are sound)', async () => {
    const info = await callApi(service.url, 'GET', '/v2/api/userinfo', {
      headers: { authorization: `Bearer ${tokens.get('valid')}` },
    });
    assert.equal(info.status, 200, JSON.stringify(info.body));
  });

  for (const [reason, says] of REASONS) {
    it(`${reason}: 401 with the reason at userinfo, appinfo and GraphQL, and in the log`, async () => {
      const token = tokens.get(reason)!;
      for (const endpoint of ['/v2/api/userinfo', '/v2/api/appinfo', '/graphql']) {
        const requestId = `${reason}-${randomUUID().slice(0, 8)}`;
        const refusal = await refusalAt(endpoint, token, requestId);
        assert.equal(refusal.status, 401, endpoint);
        assert.match(refusal.description, says, `${endpoint}: ${refusal.description}`);
        assert.ok(refusal.challenge.startsWith('Bearer '), refusal.challenge);
        assert.match(refusal.challenge, /error="invalid_token"/);
        assert.ok(
          refusal.challenge.includes(`error_description="${refusal.description}"`),
          `${endpoint}: ${refusal.challenge}`,
        );
        assert.ok(!refusal.description.includes(token), 'the token is never echoed');

        const logged = await loggedRefusal(requestId);
        assert.ok(logged, `${endpoint}: no log line of the refusal`);
        assert.equal(logged.reason, reason);
        assert.match(String(logged.msg), says);
        assert.ok(!JSON.stringify(logged).includes(token), 'the token is never logged');
      }
    });
  }

  it('kept every worker alive', () => {
    assert.deepEqual(service.crashes(), []);
  });
});

/** The token's claims with another subject, re-encoded: its signature no longer matches. */
function tamper(claims: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ ...claims, sub: 'user:someone-else' })).toString('base64url');
}
