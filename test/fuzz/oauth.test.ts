/**
 * Fuzzes every OAuth endpoint of the real service on both databases: the token endpoint (each
 * grant, with Basic, body and no client authentication), authorize, revoke, introspect, userinfo
 * and appinfo. Properties: never a 5xx, and every answer is one openapi.yaml documents for the
 * endpoint (RFC 6749 JSON errors, the error page, the redirect). Afterwards the service is ready
 * and still issues tokens and writes events.
 *
 * A quarter of the cases are well-formed requests with valid credentials, so that the paths
 * behind validation (lookups, grants, token writes) run under the fuzz as well.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeEachDeployment } from '../support/deployments.js';
import { REDIRECT_URI } from '../support/oauth-fixtures.js';
import { assertResponseMatches } from '../support/openapi-contract.js';
import {
  assertStillHealthy,
  startFuzzService,
  type FuzzService,
  type TokenSet,
} from './support/fuzz-service.js';
import { FuzzTally, fuzz, sendRaw, type Observed } from './support/fuzz-runs.js';
import {
  LONG_TEXT,
  around,
  aroundString,
  brokenJsonText,
  contentTypes,
  deepJsonText,
  nastyString,
} from './support/nasty-values.js';

type Fields = Record<string, unknown>;

/** How a generated request presents its client. */
interface ClientAuth {
  mode: 'basic' | 'body' | 'both' | 'none' | 'raw-header';
  clientId: unknown;
  secret: unknown;
  rawHeader: string;
}

interface FormRequest {
  fields: Fields;
  auth: ClientAuth;
  encoding: 'form' | 'json' | 'broken-json' | 'deep-json' | 'repeated';
  contentType: string | undefined;
  broken: string;
}

const FORM = 'application/x-www-form-urlencoded';
/** Stands for a value only known when the case runs: a new code, the live refresh token. */
const FRESH_CODE = '<fresh code>';
const LIVE_REFRESH_TOKEN = '<live refresh token>';

/** The characters a header value may hold (fetch refuses NUL, CR and LF in headers). */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

/** A generated value as the text a client would put in a form or a header. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
}

/**
 * HTTP Basic credentials as a client would encode them. Parts are capped below Node's 16 kB
 * header limit, past which the HTTP server itself answers 431 before any of our code runs.
 */
function basicHeader(clientId: unknown, secret: unknown): string {
  const encode = (value: unknown) => {
    const text = asText(value).replace(/[\uD800-\uDFFF]/g, '\uFFFD');
    return encodeURIComponent(text.length > 2000 ? LONG_TEXT : text);
  };
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

function encodeForm(fields: Fields, repeat = false): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) form.append(name, asText(item));
    if (repeat) form.append(name, asText(values[0]));
  }
  return form.toString();
}

describeEachDeployment('fuzz: OAuth endpoints', (database, deployment) => {
  let service: FuzzService;
  let tally: FuzzTally;

  before(async () => {
    service = await startFuzzService(database(), deployment);
    tally = new FuzzTally(`OAuth [${database().dialect}, ${deployment}]`);
  });
  after(async () => {
    if (tally) console.log(tally.report());
    await service?.stop();
  });

  const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

  const fuzzedAuth = () =>
    fc.record({
      mode: fc.constantFrom('basic', 'basic', 'body', 'body', 'both', 'none', 'raw-header'),
      clientId: around(
        aroundString(service.tenant.app.client_id, service.tenant.publicApp.client_id),
      ),
      secret: around(aroundString(service.tenant.app.secret)),
      rawHeader: fc.oneof(
        headerText.map((text) => `Basic ${text}`),
        headerText,
        fc
          .string({ unit: 'binary', maxLength: 40 })
          .map((text) => `Basic ${Buffer.from(text).toString('base64')}`),
      ),
    }) as fc.Arbitrary<ClientAuth>;

  const validAuth = () =>
    fc.record({
      mode: fc.constantFrom('basic', 'body'),
      clientId: fc.constant(service.tenant.app.client_id),
      secret: fc.constant(service.tenant.app.secret),
      rawHeader: fc.constant(''),
    }) as fc.Arbitrary<ClientAuth>;

  /** Mostly fuzzed requests, a quarter well-formed ones with valid client credentials. */
  const formRequest = (fuzzed: fc.Arbitrary<Fields>, wellFormed: fc.Arbitrary<Fields>) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          fields: fuzzed,
          auth: fuzzedAuth(),
          encoding: fc.constantFrom(
            ...['form', 'form', 'form', 'form', 'form', 'json', 'json'],
            ...['broken-json', 'deep-json', 'repeated'],
          ),
          contentType: contentTypes(FORM),
          broken: fc.oneof(brokenJsonText, deepJsonText),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          fields: wellFormed,
          auth: validAuth(),
          encoding: fc.constantFrom('form', 'form', 'json'),
          contentType: fc.constant(FORM),
          broken: fc.constant(''),
        }),
      },
    ) as fc.Arbitrary<FormRequest>;

  /** POSTs a generated request to a token-host endpoint. */
  function postForm(path: string, request: FormRequest): Promise<Observed> {
    const { auth } = request;
    const fields: Fields = { ...request.fields };
    const headers: Record<string, string | undefined> = {};
    if (auth.mode === 'basic' || auth.mode === 'both') {
      headers.authorization = basicHeader(auth.clientId, auth.secret);
    }
    if (auth.mode === 'raw-header') headers.authorization = auth.rawHeader;
    if (auth.mode === 'body' || auth.mode === 'both') {
      fields.client_id = auth.clientId;
      fields.client_secret = auth.secret;
    }
    if (auth.mode === 'none') fields.client_id = auth.clientId;
    let body: string;
    let contentType = request.contentType;
    switch (request.encoding) {
      case 'json':
        body = JSON.stringify(fields);
        if (contentType === FORM) contentType = 'application/json';
        break;
      case 'broken-json':
      case 'deep-json':
        body = request.broken;
        if (contentType === FORM) contentType = 'application/json';
        break;
      default:
        body = encodeForm(fields, request.encoding === 'repeated');
    }
    headers['content-type'] = contentType;
    return sendRaw(`${service.url}${path}`, { method: 'POST', headers, body });
  }

  /** Never a 5xx, and an answer openapi.yaml documents for the operation. */
  const documented = (method: string, path: string) => (observed: Observed) => {
    assert.ok(
      observed.status < 500,
      `${method} ${path} answered ${observed.status}: ${JSON.stringify(observed.body)}`,
    );
    assertResponseMatches(method, path, observed);
  };

  const employerIds = () => [service.tenant.employer.id, service.tenant.foreignEmployer.id];
  const scopes = around(
    aroundString('employer_access', 'email offline_access', 'openid email employer_access', 'jobs'),
  );

  it('token endpoint, client_credentials: never 5xx, errors as documented', async function () {
    this.timeout(0);
    const fuzzed = fc.record({
      grant_type: around(aroundString('client_credentials')),
      scope: optional(scopes),
      employer: optional(around(aroundString(...employerIds()))),
    });
    const wellFormed = fc.record({
      grant_type: fc.constant('client_credentials'),
      scope: fc.constantFrom(undefined, 'employer_access'),
      employer: fc.constantFrom(undefined, service.tenant.employer.id),
    });
    await fuzz(
      tally,
      'token client_credentials',
      formRequest(fuzzed, wellFormed),
      (request) => postForm('/oauth/v2/tokens', request),
      documented('POST', '/oauth/v2/tokens'),
    );
  });

  it('token endpoint, authorization_code: never 5xx, errors as documented', async function () {
    this.timeout(0);
    const fuzzed = fc.record({
      grant_type: around(aroundString('authorization_code')),
      code: fc.oneof(fc.constant(FRESH_CODE), around(nastyString)),
      redirect_uri: optional(around(aroundString(REDIRECT_URI, `${REDIRECT_URI}/other`))),
      code_verifier: optional(around(aroundString('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'))),
      employer: optional(around(aroundString(...employerIds()))),
    });
    const wellFormed = fc.record({
      grant_type: fc.constant('authorization_code'),
      code: fc.constant(FRESH_CODE),
      redirect_uri: fc.constant(REDIRECT_URI),
      employer: fc.constantFrom(undefined, service.tenant.employer.id),
    });
    await fuzz(
      tally,
      'token authorization_code',
      formRequest(fuzzed, wellFormed),
      async (request) => {
        const code =
          request.fields.code === FRESH_CODE ? await service.newCode() : request.fields.code;
        return postForm('/oauth/v2/tokens', { ...request, fields: { ...request.fields, code } });
      },
      documented('POST', '/oauth/v2/tokens'),
    );
  });

  it('token endpoint, refresh_token: never 5xx, errors as documented', async function () {
    this.timeout(0);
    // Each successful refresh rotates the token; the next cases present the new one.
    let live = (await service.freshTokens()).refreshToken;
    const fuzzed = fc.record({
      grant_type: around(aroundString('refresh_token')),
      refresh_token: around(aroundString(LIVE_REFRESH_TOKEN)),
      scope: optional(scopes),
      employer: optional(around(aroundString(...employerIds()))),
    });
    const wellFormed = fc.record({
      grant_type: fc.constant('refresh_token'),
      refresh_token: fc.constant(LIVE_REFRESH_TOKEN),
      scope: fc.constantFrom(undefined, 'employer_access', 'email'),
      employer: fc.constantFrom(undefined, service.tenant.employer.id),
    });
    await fuzz(
      tally,
      'token refresh_token',
      formRequest(fuzzed, wellFormed),
      async (request) => {
        const presented = request.fields.refresh_token;
        const refresh_token = presented === LIVE_REFRESH_TOKEN ? live : presented;
        const observed = await postForm('/oauth/v2/tokens', {
          ...request,
          fields: { ...request.fields, refresh_token },
        });
        const issued = (observed.body as { refresh_token?: string }).refresh_token;
        if (observed.status === 200 && issued) live = issued;
        return observed;
      },
      documented('POST', '/oauth/v2/tokens'),
    );
  });

  /** The target's own tokens, since revoking them would spoil the other targets' cases. */
  const tokenFields = (tokens: TokenSet) => {
    const all = [tokens.employerToken, tokens.appToken, tokens.userToken, tokens.refreshToken];
    const hints = ['access_token', 'refresh_token'];
    return {
      fuzzed: fc.record({
        token: around(aroundString(...all)),
        token_type_hint: optional(around(aroundString(...hints))),
      }),
      wellFormed: fc.record({
        token: fc.constantFrom(...all),
        token_type_hint: fc.constantFrom(undefined, ...hints),
      }),
    };
  };

  for (const [name, path] of [
    ['revoke', '/oauth/v2/revoke'],
    ['introspect', '/oauth/v2/introspect'],
  ] as const) {
    it(`${path}: never 5xx, errors as documented`, async function () {
      this.timeout(0);
      const { fuzzed, wellFormed } = tokenFields(await service.freshTokens());
      await fuzz(
        tally,
        name,
        formRequest(fuzzed, wellFormed),
        (request) => postForm(path, request),
        documented('POST', path),
      );
    });
  }

  it('authorization endpoint: never 5xx; an error page or a redirect as documented', async function () {
    this.timeout(0);
    // Values are capped well below Node's 16 kB header limit, past which the HTTP server itself
    // answers 431 before any of our code runs.
    const value = (...valid: string[]) =>
      optional(aroundString(...valid).map((text) => (text.length > 4000 ? LONG_TEXT : text)));
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const fuzzed = fc.record({
      client_id: value(service.tenant.app.client_id, service.tenant.publicApp.client_id),
      redirect_uri: value(REDIRECT_URI, 'https://evil.example/callback'),
      response_type: value('code', 'token'),
      scope: value('email', 'openid email offline_access employer_access', 'jobs'),
      state: value('af0ifjsldkj'),
      nonce: value('n-0S6_WzA2Mj'),
      prompt: value('select_employer'),
      code_challenge: value(challenge),
      code_challenge_method: value('S256', 'plain'),
    });
    const wellFormed = fc.record({
      client_id: fc.constantFrom(service.tenant.app.client_id, service.tenant.publicApp.client_id),
      redirect_uri: fc.constant(REDIRECT_URI),
      response_type: fc.constant('code'),
      scope: fc.constantFrom('email', 'openid email offline_access employer_access'),
      state: optional(fc.constant('af0ifjsldkj')),
      nonce: optional(fc.constant('n-0S6_WzA2Mj')),
      prompt: optional(fc.constant('select_employer')),
      code_challenge: fc.constant(challenge),
      code_challenge_method: fc.constant('S256'),
    });
    const cookie = await service.signedInBrowser([
      'email',
      'email employer_access offline_access openid',
    ]);
    const request = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          query: fuzzed,
          repeat: optional(fc.constantFrom('client_id', 'redirect_uri', 'scope', 'state')),
          raw: fc.constantFrom(
            ...['', '&%zz', '&state=%ED%A0%80', '&client_id=%00', '&%00=%00', '&&&=&'],
          ),
          signedIn: fc.boolean(),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          query: wellFormed,
          repeat: fc.constant(undefined),
          raw: fc.constant(''),
          signedIn: fc.boolean(),
        }),
      },
    );
    await fuzz(
      tally,
      'authorize',
      request,
      ({ query, repeat, raw, signedIn }) => {
        const search = new URLSearchParams();
        for (const [name, text] of Object.entries(query)) {
          if (text === undefined) continue;
          search.append(name, text);
          if (name === repeat) search.append(name, text);
        }
        return sendRaw(`${service.url}/oauth/v2/authorize?${search}${raw}`, {
          method: 'GET',
          headers: { cookie: signedIn ? cookie : undefined },
        });
      },
      (observed) => {
        documented('GET', '/oauth/v2/authorize')(observed);
        if (observed.status === 400) assert.match(String(observed.body), /<html/i);
      },
    );
  });

  /** Bearer headers: real tokens of every kind, mangled ones and plain junk. */
  const bearerHeaders = (tokens: TokenSet) => {
    const real = [tokens.userToken, tokens.appToken, tokens.employerToken];
    const mangled = fc
      .tuple(fc.constantFrom(...real), fc.nat(), headerText)
      .map(([token, at, junk]) => {
        const cut = at % token.length;
        return `${token.slice(0, cut)}${junk}${token.slice(cut + 1)}`;
      });
    const forged = fc
      .tuple(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), headerText)
      .map(
        ([header, payload, signature]) =>
          [header, payload]
            .map((part) => Buffer.from(JSON.stringify(part) ?? '').toString('base64url'))
            .join('.') + `.${signature}`,
      );
    const token = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...real) },
      { weight: 3, arbitrary: mangled },
      { weight: 2, arbitrary: forged },
      { weight: 2, arbitrary: headerText },
      { weight: 1, arbitrary: fc.constant('x'.repeat(8000)) },
    );
    return fc.oneof(
      { weight: 6, arbitrary: token.map((value) => `Bearer ${value}`) },
      { weight: 1, arbitrary: token.map((value) => `bearer  ${value}`) },
      { weight: 1, arbitrary: headerText },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  };

  for (const path of ['/v2/api/userinfo', '/v2/api/appinfo']) {
    it(`${path}: never 5xx, errors as documented`, async function () {
      this.timeout(0);
      const headers = bearerHeaders(await service.freshTokens());
      await fuzz(
        tally,
        path.slice('/v2/api/'.length),
        headers,
        (authorization) =>
          sendRaw(`${service.url}${path}`, { method: 'GET', headers: { authorization } }),
        documented('GET', path),
      );
    });
  }

  it('leaves the service ready, issuing tokens and writing events', async () => {
    await assertStillHealthy(service);
  });
});
