import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import type { Grant } from '../../src/oauth/grants/grant.js';
import { BUILT_IN_GRANTS } from '../../src/oauth/grants/registry.js';
import { ConsoleClient, locationOf, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { basic } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';

const ECHO = 'urn:test:echo';

interface EchoRequest {
  grant_type: typeof ECHO;
  scope?: string;
}

/**
 * A throwaway fourth grant, registered by this test only: it issues a token like the client
 * credentials grant's, with no scope. Its request validator is a small inline schema.
 */
const echoGrant: Grant<EchoRequest> = {
  name: ECHO,
  label: 'Echo',
  description: 'a test-only grant that answers with an app token',
  validate: new Ajv({ allErrors: true }).compile<EchoRequest>({
    type: 'object',
    required: ['grant_type'],
    properties: {
      grant_type: { type: 'string', const: ECHO },
      scope: { type: 'string', maxLength: 0 },
    },
  }),
  publicClients: false,
  handle: (issuer, client) => issuer.issueAppAccessToken(client, '', null, ECHO),
};

async function json(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function tokenRequest(url: string, form: Record<string, string>, headers: Record<string, string>) {
  return json(`${url}/oauth/v2/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

function shown(html: string, id: string): string {
  const match = new RegExp(`<code id="${id}"[^>]*>([^<]*)</code>`).exec(html);
  assert.ok(match, `no ${id} on the page:\n${html}`);
  return unescapeHtml(match[1]!);
}

describeEachDialect('grant registry: a fourth grant, registered and nothing else', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database(), { grants: [...BUILT_IN_GRANTS, echoGrant] });
  });
  after(async () => {
    await service?.stop();
  });

  it('is advertised, offered on the console, stored by default and accepted by the token endpoint', async () => {
    const discovery = await json(`${service.url}/.well-known/openid-configuration`);
    assert.deepEqual(discovery.body.grant_types_supported, [
      'authorization_code',
      'refresh_token',
      'client_credentials',
      ECHO,
    ]);

    const browser = new ConsoleClient(service.url);
    await browser.signUp(
      `echo-${Date.now()}-${Math.random()}@example.com`,
      'correct horse battery',
    );
    const form = await browser.get('/console/apps/new');
    assert.equal(form.status, 200);
    assert.match(
      form.body,
      /<input id="grant-type-urn-test-echo" name="grant_types" type="checkbox" value="urn:test:echo"\s+[^>]*checked/,
    );
    assert.match(
      form.body,
      /Echo: a test-only grant that answers with an app token \(confidential apps only\)/,
    );

    // A registration that chooses no grants (a scripted one: the form always sends its boxes).
    const created = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'Echoer',
      client_type: 'confidential',
      redirect_uri_1: 'https://partner.example.com/callback',
      description: '',
    });
    assert.equal(created.status, 303, created.body);
    const credentials = await browser.get(locationOf(created));
    const clientId = shown(credentials.body, 'client-id');
    const secret = shown(credentials.body, 'client-secret');
    const overview = await browser.get(`/console/apps/${clientId}`);
    assert.match(overview.body, /Authorization code, Refresh token, Client credentials, Echo/);

    const issued = await tokenRequest(service.url, { grant_type: ECHO }, basic(clientId, secret));
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.equal(issued.body.token_type, 'Bearer');
    assert.equal(issued.body.scope, '');
    assert.equal(typeof issued.body.access_token, 'string');
    assert.equal(issued.body.refresh_token, undefined);
    const introspected = await json(`${service.url}/oauth/v2/introspect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...basic(clientId, secret),
      },
      body: new URLSearchParams({ token: String(issued.body.access_token) }).toString(),
    });
    assert.equal(introspected.body.active, true);
    assert.equal(introspected.body.sub, `app:${clientId}`);

    // Its validator refuses what its schema does not allow, before any authentication.
    const malformed = await tokenRequest(service.url, { grant_type: ECHO, scope: 'email' }, {});
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error, 'invalid_request');

    // An app registered without a choice stores every registered grant, the new one included.
    const stored = await database().db('apps').where({ client_id: clientId }).first();
    assert.equal(
      stored.grant_types,
      'authorization_code refresh_token client_credentials urn:test:echo',
    );

    const unknown = await tokenRequest(
      service.url,
      { grant_type: 'password' },
      basic(clientId, secret),
    );
    assert.deepEqual(unknown.body, {
      error: 'unsupported_grant_type',
      error_description:
        'grant_type "password" is not supported; use authorization_code, refresh_token, client_credentials or urn:test:echo',
    });
  });

  it('is refused to a public client and to an app that did not choose it', async () => {
    const browser = new ConsoleClient(service.url);
    await browser.signUp(
      `echo-${Date.now()}-${Math.random()}@example.com`,
      'correct horse battery',
    );
    const publicApp = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'Public echoer',
      client_type: 'public',
      redirect_uri_1: 'https://partner.example.com/callback',
      description: '',
      grant_types: ['', 'authorization_code', ECHO],
    });
    assert.equal(publicApp.status, 303, publicApp.body);
    const publicId = shown((await browser.get(locationOf(publicApp))).body, 'client-id');
    const refused = await tokenRequest(service.url, { grant_type: ECHO, client_id: publicId }, {});
    assert.deepEqual(refused.body, {
      error: 'unauthorized_client',
      error_description: 'public clients cannot use the urn:test:echo grant',
    });

    const other = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'Not an echoer',
      client_type: 'confidential',
      redirect_uri_1: 'https://partner.example.com/callback',
      description: '',
      grant_types: ['', 'client_credentials'],
    });
    const page = (await browser.get(locationOf(other))).body;
    const notChosen = await tokenRequest(
      service.url,
      { grant_type: ECHO },
      basic(shown(page, 'client-id'), shown(page, 'client-secret')),
    );
    assert.equal(notChosen.body.error, 'unauthorized_client');
  });
});
