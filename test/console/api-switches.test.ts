import assert from 'node:assert/strict';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL, withoutCost } from '../support/graphql-client.js';
import { basic, callApi } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';
import { ConsoleClient, formCsrfToken, locationOf } from '../support/console-client.js';

const PASSWORD = 'correct horse battery staple';
const WEBHOOKS = 'query { webhookEndpoint(id: "none") { id } }';

let sequence = 0;
async function signedIn(baseUrl: string): Promise<ConsoleClient> {
  sequence += 1;
  const browser = new ConsoleClient(baseUrl);
  await browser.signUp(`switches-${sequence}-${Date.now()}@example.com`, PASSWORD);
  return browser;
}

function switchOf(html: string, api: string): string {
  const match = new RegExp(`<button[^>]*id="api-${api}"[^>]*>\\s*(On|Off)\\s*</button>`).exec(html);
  assert.ok(match, `no switch for ${api}:\n${html}`);
  return match[0];
}

describeEachDialect('console: an app’s API switches', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let browser: ConsoleClient;
  let base = '';
  let token = '';

  before(async () => {
    service = await startTestService(database());
    browser = await signedIn(service.url);
    const created = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'Switches',
      client_type: 'confidential',
      redirect_uri_1: 'https://partner.example.com/callback',
      grant_types: ['', 'authorization_code', 'client_credentials'],
    });
    assert.equal(created.status, 303, created.body);
    const credentials = await browser.get(locationOf(created));
    const clientId = /<code id="client-id">([^<]*)<\/code>/.exec(credentials.body)![1]!;
    const secret = /<code id="client-secret" class="secret">([^<]*)<\/code>/.exec(
      credentials.body,
    )![1]!;
    base = `/console/apps/${clientId}`;
    const issued = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form: { grant_type: 'client_credentials' },
      headers: basic(clientId, secret),
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    token = (issued.body as { access_token: string }).access_token;
  });
  after(async () => {
    await service?.stop();
  });

  async function call() {
    return withoutCost((await postGraphQL(service.url, token, { query: WEBHOOKS })).body);
  }

  it('shows one switch per API on the Overview, on by default', async () => {
    const overview = await browser.get(base);
    assert.equal(overview.status, 200);
    assert.match(overview.body, /<h2 id="apis-heading">APIs<\/h2>/);
    assert.match(switchOf(overview.body, 'interview'), /role="switch"[^>]*aria-checked="true"/);
    assert.match(switchOf(overview.body, 'webhooks'), /aria-checked="true"/);
    assert.deepEqual(await call(), { data: { webhookEndpoint: null } });
  });

  it('turns an API off and on: the next request is refused, then answered, both audited', async () => {
    const off = await browser.submit(base, `${base}/apis/webhooks`, { enabled: 'off' });
    assert.equal(off.status, 303, off.body);
    const overview = await browser.get(locationOf(off));
    assert.match(overview.body, /API disabled/);
    assert.match(switchOf(overview.body, 'webhooks'), /aria-checked="false"[^>]*>\s*Off/);

    const refused = await call();
    assert.equal(refused.data.webhookEndpoint, null);
    assert.deepEqual(refused.errors![0]!.extensions, { code: 'FORBIDDEN', api: 'webhooks' });

    const on = await browser.submit(base, `${base}/apis/webhooks`, { enabled: 'on' });
    assert.equal(on.status, 303, on.body);
    assert.deepEqual(await call(), { data: { webhookEndpoint: null } });

    const activity = await browser.get(`${base}/activity`);
    assert.match(activity.body, /API disabled/);
    assert.match(activity.body, /API enabled/);
    assert.match(activity.body, /webhooks/);
  });

  it("answers 404 for an unknown API or value, and for another user's app", async () => {
    const page = await browser.get(base);
    const csrfToken = formCsrfToken(page.body, `${base}/apis/webhooks`);
    const unknown = await browser.post(`${base}/apis/jobs`, {
      csrf_token: csrfToken,
      enabled: 'on',
    });
    assert.equal(unknown.status, 404);
    const badValue = await browser.submit(base, `${base}/apis/webhooks`, { enabled: 'maybe' });
    assert.equal(badValue.status, 404);
    const stranger = await signedIn(service.url);
    const theirs = await stranger.post(`${base}/apis/webhooks`, {
      csrf_token: formCsrfToken(
        (await stranger.get('/console/apps/new')).body,
        '/console/apps/new',
      ),
      enabled: 'off',
    });
    assert.equal(theirs.status, 404);
    assert.deepEqual(await call(), { data: { webhookEndpoint: null } });
  });
});
