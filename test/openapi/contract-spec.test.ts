import assert from 'node:assert/strict';
import type { ValidateFunction } from 'ajv';
import {
  validateAuthorizationCodeGrant,
  validateAuthorizeQuery,
  validateClientCredentialsGrant,
  validateIntrospectRequest,
  validateRefreshTokenGrant,
  validateRevokeRequest,
  validateTokenRequest,
} from '../../generated/validators.cjs';
import { describeValidationErrors } from '../../src/http/openapi-validation.js';
import { assertResponseMatches, openApiDocument } from '../support/openapi-contract.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(): { name: string; operation: Record<string, unknown> }[] {
  return Object.entries(openApiDocument().paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      name: `${method.toUpperCase()} ${path}`,
      operation: item[method] as Record<string, unknown>,
    })),
  );
}

function without<T extends object>(value: T, key: keyof T): Partial<T> {
  const copy: Partial<T> = { ...value };
  delete copy[key];
  return copy;
}

/** Asserts that validation fails and returns the problem the handlers would report. */
function rejection(validate: ValidateFunction, data: unknown) {
  assert.equal(validate(data), false, `expected ${JSON.stringify(data)} to be rejected`);
  return describeValidationErrors(validate.errors, data);
}

const authorizationCode = {
  grant_type: 'authorization_code',
  code: 'SplxlOBeZQQYbYS6WxSbIA',
  redirect_uri: 'https://partner.example/callback',
  code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  employer: 'emp-1',
};
const refreshToken = { grant_type: 'refresh_token', refresh_token: 'tGzv3JOkF0XG5Qx2TlKWIA' };
const clientCredentials = {
  grant_type: 'client_credentials',
  scope: 'employer_access',
  client_id: 'client-1',
  client_secret: 'secret-1',
};
const authorizeQuery = {
  client_id: 'client-1',
  redirect_uri: 'https://partner.example/callback',
  response_type: 'code',
  scope: 'email offline_access employer_access',
  state: 'af0ifjsldkj',
  prompt: 'select_employer',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
};

describe('openapi.yaml', () => {
  it('is an OpenAPI 3.1 document with paths and component schemas', () => {
    const document = openApiDocument();
    assert.equal(document.openapi, '3.1.0');
    assert.ok(Object.keys(document.paths).length > 0);
    assert.ok(document.components.schemas.TokenRequest);
  });

  it('gives every operation a unique operationId, a summary, a description and a tag', () => {
    const seen = new Set<string>();
    for (const { name, operation } of operations()) {
      assert.equal(typeof operation.operationId, 'string', `${name} has no operationId`);
      assert.ok(!seen.has(operation.operationId as string), `${name}: duplicate operationId`);
      seen.add(operation.operationId as string);
      assert.equal(typeof operation.summary, 'string', `${name} has no summary`);
      assert.equal(typeof operation.description, 'string', `${name} has no description`);
      assert.ok(Array.isArray(operation.tags) && operation.tags.length > 0, `${name} has no tag`);
    }
  });

  // redocly.yaml switches operation-4xx-response off for the input-free endpoints; this keeps
  // the rule for every operation that takes parameters, a body or credentials.
  it('documents a client error for every operation that takes input', () => {
    for (const { name, operation } of operations()) {
      const security = (operation.security ?? []) as object[];
      const takesInput =
        Array.isArray(operation.parameters) ||
        operation.requestBody !== undefined ||
        security.some((requirement) => Object.keys(requirement).length > 0);
      if (!takesInput) continue;
      const statuses = Object.keys(operation.responses as object);
      assert.ok(
        statuses.some((status) => status.startsWith('4')),
        `${name} documents no 4xx response`,
      );
    }
  });
});

describe('generated request validators', () => {
  it('accept a valid token request for each grant, alone and through the union', () => {
    assert.equal(validateAuthorizationCodeGrant(authorizationCode), true);
    assert.equal(validateRefreshTokenGrant(refreshToken), true);
    assert.equal(validateClientCredentialsGrant(clientCredentials), true);
    for (const body of [authorizationCode, refreshToken, clientCredentials]) {
      assert.equal(validateTokenRequest(body), true, JSON.stringify(validateTokenRequest.errors));
    }
  });

  it('narrow the validated value to the type generated from openapi.yaml', () => {
    const body: unknown = { ...refreshToken };
    if (!validateTokenRequest(body)) assert.fail('expected a valid refresh request');
    // Type-checks only because the validator is a ValidateFunction of the generated TokenRequest.
    const grant: 'authorization_code' | 'refresh_token' | 'client_credentials' = body.grant_type;
    assert.equal(grant, 'refresh_token');
  });

  it('ignore parameters they do not know, as RFC 6749 requires', () => {
    assert.equal(validateTokenRequest({ ...refreshToken, audience: 'x' }), true);
    assert.equal(validateAuthorizeQuery({ ...authorizeQuery, ui_locales: 'de' }), true);
  });

  it('reject an authorization code grant without a code', () => {
    const problem = rejection(validateTokenRequest, without(authorizationCode, 'code'));
    assert.deepEqual(problem, {
      parameter: 'code',
      keyword: 'required',
      message: 'code is required',
    });
  });

  it('reject an empty code and a malformed PKCE verifier', () => {
    assert.equal(
      rejection(validateTokenRequest, { ...authorizationCode, code: '' }).message,
      'code must not be empty',
    );
    const problem = rejection(validateAuthorizationCodeGrant, {
      ...authorizationCode,
      code_verifier: 'x'.repeat(42) + '!',
    });
    assert.equal(problem.parameter, 'code_verifier');
    assert.equal(problem.message, 'code_verifier has an invalid format');
  });

  it('reject an unknown or missing grant_type', () => {
    const unknown = rejection(validateTokenRequest, { grant_type: 'password', username: 'a' });
    assert.equal(unknown.parameter, 'grant_type');
    assert.equal(
      unknown.message,
      'grant_type must be one of authorization_code, refresh_token, client_credentials',
    );
    assert.equal(rejection(validateTokenRequest, { code: 'x' }).message, 'grant_type is required');
  });

  it('do not coerce types: a repeated form field is refused', () => {
    const problem = rejection(validateTokenRequest, {
      ...refreshToken,
      scope: ['email', 'openid'],
    });
    assert.equal(problem.message, 'scope must be given only once');
  });

  it('accept a complete authorize query and reject the plain PKCE method', () => {
    assert.equal(validateAuthorizeQuery(authorizeQuery), true);
    const problem = rejection(validateAuthorizeQuery, {
      ...authorizeQuery,
      code_challenge_method: 'plain',
    });
    assert.deepEqual(problem, {
      parameter: 'code_challenge_method',
      keyword: 'enum',
      message: 'code_challenge_method must be S256',
    });
  });

  it('name the authorize parameters that decide between an error page and a redirect', () => {
    const withoutClient = without(authorizeQuery, 'client_id');
    assert.equal(rejection(validateAuthorizeQuery, withoutClient).parameter, 'client_id');
    const badRedirect = rejection(validateAuthorizeQuery, {
      ...authorizeQuery,
      redirect_uri: 'cb',
    });
    assert.equal(badRedirect.message, 'redirect_uri must be an absolute URI');
    assert.equal(
      rejection(validateAuthorizeQuery, { ...authorizeQuery, response_type: 'token' }).message,
      'response_type must be code',
    );
  });

  it('check revocation and introspection bodies', () => {
    assert.equal(validateRevokeRequest({ token: 'abc', token_type_hint: 'refresh_token' }), true);
    assert.equal(validateIntrospectRequest({ token: 'abc' }), true);
    assert.equal(rejection(validateRevokeRequest, {}).message, 'token is required');
    assert.equal(
      rejection(validateIntrospectRequest, { token: 'abc', token_type_hint: 'id_token' }).message,
      'token_type_hint must be one of access_token, refresh_token',
    );
  });
});

describe('assertResponseMatches', () => {
  const tokenHeaders = () =>
    new Headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-request-id': 'req-1',
    });
  const tokenBody = {
    access_token: 'eyJ.e30.sig',
    token_type: 'Bearer',
    expires_in: 3600,
    scope: 'employer_access',
    convid: 'req-1',
  };

  it('accepts a conforming token response, parsed or as text', () => {
    assertResponseMatches('POST', '/oauth/v2/tokens', {
      status: 200,
      headers: tokenHeaders(),
      body: tokenBody,
    });
    assertResponseMatches('post', '/oauth/v2/tokens', {
      status: 200,
      headers: tokenHeaders(),
      body: JSON.stringify(tokenBody),
    });
  });

  it('rejects a body that does not match the schema', () => {
    const body = without(tokenBody, 'access_token');
    assert.throws(
      () =>
        assertResponseMatches('POST', '/oauth/v2/tokens', {
          status: 200,
          headers: tokenHeaders(),
          body,
        }),
      /access_token/,
    );
    assert.throws(
      () =>
        assertResponseMatches('POST', '/oauth/v2/tokens', {
          status: 200,
          headers: tokenHeaders(),
          body: { ...tokenBody, token_type: 'bearer' },
        }),
      /token_type/,
    );
  });

  it('rejects a missing required header, a wrong media type and an undocumented status', () => {
    const headers = tokenHeaders();
    headers.delete('cache-control');
    assert.throws(
      () =>
        assertResponseMatches('POST', '/oauth/v2/tokens', {
          status: 200,
          headers,
          body: tokenBody,
        }),
      /Cache-Control/,
    );
    const html = new Headers({ 'content-type': 'text/html', 'cache-control': 'no-store' });
    assert.throws(
      () =>
        assertResponseMatches('POST', '/oauth/v2/tokens', { status: 200, headers: html, body: '' }),
      /content type/,
    );
    assert.throws(
      () =>
        assertResponseMatches('GET', '/healthz', {
          status: 404,
          headers: tokenHeaders(),
          body: {},
        }),
      /not documented/,
    );
    assert.throws(
      () =>
        assertResponseMatches('GET', '/nope', { status: 200, headers: tokenHeaders(), body: {} }),
      /not an operation/,
    );
  });

  it('handles query strings, redirects, empty bodies and alternative schemas', () => {
    assertResponseMatches('GET', '/oauth/v2/authorize?client_id=a&state=b', {
      status: 302,
      headers: new Headers({ location: 'https://partner.example/callback?code=x&iss=y&state=b' }),
      body: 'Found. Redirecting to https://partner.example/callback',
    });
    assert.throws(
      () =>
        assertResponseMatches('GET', '/oauth/v2/authorize', {
          status: 302,
          headers: new Headers(),
          body: '',
        }),
      /Location/,
    );
    assertResponseMatches('POST', '/oauth/v2/revoke', {
      status: 200,
      headers: new Headers({ 'cache-control': 'no-store' }),
      body: '',
    });
    assert.throws(
      () =>
        assertResponseMatches('POST', '/oauth/v2/revoke', {
          status: 200,
          headers: new Headers({ 'cache-control': 'no-store', 'content-type': 'text/plain' }),
          body: 'OK',
        }),
      /documents none/,
    );
    const json = new Headers({ 'content-type': 'application/json' });
    assertResponseMatches('GET', '/readyz', {
      status: 503,
      headers: json,
      body: { status: 'unavailable', checks: { database: 'error' } },
    });
    assertResponseMatches('POST', '/graphql', {
      status: 401,
      headers: json,
      body: {
        data: null,
        errors: [{ message: 'No token', extensions: { code: 'UNAUTHENTICATED' } }],
      },
    });
    assert.throws(() =>
      assertResponseMatches('POST', '/graphql', {
        status: 401,
        headers: json,
        body: { data: null, errors: [{ message: 'No token', extensions: { code: 'NOPE' } }] },
      }),
    );
  });
});
