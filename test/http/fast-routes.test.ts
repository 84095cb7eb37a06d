import assert from 'node:assert/strict';
import { request } from 'node:http';
import { ManualClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { acceptTestToken, startTestService } from '../support/service.js';

interface RawAnswer {
  status: number;
  statusMessage: string;
  /** Header names and values, in the order and spelling they came on the wire. */
  headers: string[];
  body: string;
}

function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          statusMessage: response.statusMessage!,
          headers: response.rawHeaders,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The answer with what legitimately differs between two servers' answers taken out. */
function comparable(answer: RawAnswer, variableBody: boolean): RawAnswer {
  const headers = answer.headers.map((value, index) => {
    const name = answer.headers[index - 1]?.toLowerCase();
    if (index % 2 === 0) return value;
    if (name === 'date' || name === 'keep-alive') return '…';
    if (variableBody && name === 'etag') return '…';
    return value;
  });
  const body = variableBody
    ? answer.body.replace(/"access_token":"[^"]+"/, '"access_token":"…"')
    : answer.body;
  return { ...answer, headers, body };
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const RATE_LIMIT = 40;

describeEachDialect('fast listener answers as Express does', (database) => {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
  let fast: Awaited<ReturnType<typeof startTestService>>;
  let express: Awaited<ReturnType<typeof startTestService>>;
  let tenant: OAuthTenant;

  before(async () => {
    const options = {
      clock,
      authenticate: acceptTestToken,
      env: { RATE_LIMIT_TOKEN_MAX: String(RATE_LIMIT), BODY_LIMIT_BYTES: '2048' },
    };
    fast = await startTestService(database(), options);
    express = await startTestService(database(), { ...options, fastRoutes: false });
    tenant = await createOAuthTenant(database().db, clock, 'fast');
  });
  after(async () => {
    await fast?.stop();
    await express?.stop();
  });

  const both = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
    variableBody = false,
  ) => {
    const requestId = { 'x-request-id': `same-id-${Math.random().toString(36).slice(2)}` };
    const viaExpress = await send(express.url, method, path, { ...requestId, ...headers }, body);
    const viaFast = await send(fast.url, method, path, { ...requestId, ...headers }, body);
    assert.deepEqual(comparable(viaFast, variableBody), comparable(viaExpress, variableBody));
    return viaFast;
  };
  const client = () => basic(tenant.app.client_id, tenant.app.secret);
  const grant = `grant_type=client_credentials&scope=employer_access&employer=`;

  describe('POST /oauth/v2/tokens', () => {
    it('issues a token', async () => {
      const answer = await both(
        'POST',
        '/oauth/v2/tokens',
        { ...client(), 'content-type': FORM },
        grant + tenant.employer.id,
        true,
      );
      assert.equal(answer.status, 200);
      const json = await both(
        'POST',
        '/oauth/v2/tokens',
        { ...client(), 'content-type': JSON_TYPE },
        JSON.stringify({ grant_type: 'client_credentials' }),
        true,
      );
      assert.equal(json.status, 200);
    });

    it('answers every refusal the same way', async () => {
      const cases: Array<[Record<string, string>, string | undefined, number]> = [
        [{ ...client(), 'content-type': 'text/plain' }, 'grant_type=client_credentials', 415],
        [{ ...client() }, undefined, 415],
        [{ ...client(), 'content-type': FORM }, `${grant}${'x'.repeat(3000)}`, 413],
        [{ ...client(), 'content-type': JSON_TYPE }, '{"grant_type":', 400],
        [{ ...client(), 'content-type': JSON_TYPE }, '"just a string"', 400],
        [{ ...client(), 'content-type': FORM }, 'scope=employer_access', 400],
        [{ ...client(), 'content-type': FORM }, 'grant_type=a&grant_type=b', 400],
        [{ ...client(), 'content-type': FORM }, 'grant_type=password', 400],
        [{ ...client(), 'content-type': FORM }, '', 400],
        [{ 'content-type': FORM }, 'grant_type=client_credentials', 401],
        [basic(tenant.app.client_id, 'wrong'), 'grant_type=client_credentials', 415],
        [
          { ...basic(tenant.app.client_id, 'wrong'), 'content-type': FORM },
          'grant_type=client_credentials',
          401,
        ],
        [{ ...client(), 'content-type': `${FORM}; charset=latin1` }, 'grant_type=x', 415],
        [{ ...client(), 'content-type': FORM, 'content-encoding': 'gzip' }, 'not gzip', 400],
      ];
      for (const [headers, body, status] of cases) {
        const answer = await both('POST', '/oauth/v2/tokens', headers, body);
        assert.equal(answer.status, status, `${JSON.stringify(headers)} ${body}`);
      }
    });

    it('rate limits the same way', async () => {
      const headers = { 'content-type': FORM };
      const body = 'grant_type=client_credentials&client_id=rate-limited-client&client_secret=x';
      for (let sent = 0; sent < RATE_LIMIT; sent++) {
        await send(fast.url, 'POST', '/oauth/v2/tokens', headers, body);
      }
      const answer = await both('POST', '/oauth/v2/tokens', headers, body);
      assert.equal(answer.status, 429);
    });

    it('takes a request id only when it is well-formed', async () => {
      const headers = { ...client(), 'content-type': FORM, 'x-request-id': 'bad id!' };
      const answer = await send(fast.url, 'POST', '/oauth/v2/tokens', headers, 'grant_type=x');
      const id = answer.headers[answer.headers.findIndex((h) => h === 'X-Request-Id') + 1];
      assert.match(id ?? '', /^[0-9a-f-]{36}$/);
    });
  });

  for (const path of ['/oauth/v2/introspect', '/oauth/v2/revoke']) {
    describe(`POST ${path}`, () => {
      // A token either service issued would be active on one of them only (their issuers differ);
      // what each answers for its own tokens is test/oauth/token-endpoint.test.ts's.
      it('answers an unknown token and every refusal the same way', async () => {
        const cases: Array<[Record<string, string>, string | undefined, number]> = [
          [{ ...client(), 'content-type': FORM }, 'token=x.y.z', 200],
          [{ ...client(), 'content-type': JSON_TYPE }, JSON.stringify({ token: 'x.y.z' }), 200],
          [{ ...client(), 'content-type': FORM }, 'token_type_hint=access_token', 400],
          [{ ...client(), 'content-type': 'text/plain' }, 'token=x', 415],
          [{ ...client(), 'content-type': FORM }, `token=${'x'.repeat(3000)}`, 413],
          [{ ...client(), 'content-type': JSON_TYPE }, '{"token":', 400],
          [{ 'content-type': FORM }, 'token=x', 401],
          [{ ...basic(tenant.app.client_id, 'wrong'), 'content-type': FORM }, 'token=x', 401],
        ];
        for (const [headers, body, status] of cases) {
          const answer = await both('POST', path, headers, body);
          assert.equal(answer.status, status, `${JSON.stringify(headers)} ${body}`);
        }
      });
    });
  }

  describe('POST /graphql', () => {
    const bearer = { authorization: 'Bearer valid-test-token' };
    it('answers queries and every refusal the same way', async () => {
      const cases: Array<[Record<string, string>, string | undefined, number]> = [
        [{ ...bearer, 'content-type': JSON_TYPE }, '{"query":"{ __typename }"}', 200],
        [{ 'content-type': JSON_TYPE }, '{"query":"{ __typename }"}', 401],
        [{ authorization: 'Bearer nope', 'content-type': JSON_TYPE }, '{"query":"{ a }"}', 401],
        [{ ...bearer, 'content-type': 'text/plain' }, '{"query":"{ __typename }"}', 415],
        [{ ...bearer, 'content-type': JSON_TYPE }, `{"query":"${'x'.repeat(3000)}"}`, 413],
        [{ ...bearer, 'content-type': JSON_TYPE }, '{"query":', 400],
        [{ ...bearer, 'content-type': JSON_TYPE }, '{"query":"{ nope }"}', 200],
        [{ ...bearer, 'content-type': JSON_TYPE }, '{"query":"{"}', 200],
        [{ ...bearer, 'content-type': JSON_TYPE }, '{"variables":{}}', 400],
        [{ ...bearer, 'content-type': JSON_TYPE }, '[]', 400],
      ];
      for (const [headers, body, status] of cases) {
        const answer = await both('POST', '/graphql', headers, body);
        assert.equal(answer.status, status, `${JSON.stringify(headers)} ${body}`);
      }
      const get = await both('GET', '/graphql?query=%7B__typename%7D', bearer);
      assert.equal(get.status, 405);
    });
  });
});
