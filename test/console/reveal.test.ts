import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ConsoleClient, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, callApi } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery';
const SECRET = /<code id="client-secret" class="secret">([^<]+)<\/code>/;

describeEachDialect('revealing a client secret on the console', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let ada: ConsoleClient;
  let clientId: string;
  let secret: string;
  let credentials: string;

  before(async () => {
    service = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '3' } });
    ada = new ConsoleClient(service.url);
    await ada.signUp(`ada-${randomBytes(4).toString('hex')}@example.com`, PASSWORD);
    const created = await ada.submit('/console/apps/new', '/console/apps/new', {
      name: 'Reveal check',
      client_type: 'confidential',
      redirect_uri_1: 'https://app.example.com/callback',
    });
    assert.equal(created.status, 303, created.body);
    credentials = created.headers.get('location')!;
    clientId = decodeURIComponent(credentials.split('/')[3]!);
    const shown = await ada.get(credentials);
    secret = unescapeHtml(SECRET.exec(shown.body)![1]!);
    assert.doesNotMatch((await ada.get(credentials)).body, SECRET, 'masked on the next view');
  });
  after(async () => {
    await service?.stop();
  });

  const reveal = (client: ConsoleClient, password: string) =>
    client.submit(credentials, `${credentials}/reveal`, { password });

  it('shows the current secret once more after the password is re-entered, and records it', async () => {
    const answer = await reveal(ada, PASSWORD);
    assert.equal(answer.status, 303);
    const page = await ada.get(credentials);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(unescapeHtml(SECRET.exec(page.body)![1]!), secret);
    assert.doesNotMatch((await ada.get(credentials)).body, SECRET, 'masked again afterwards');
    const works = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form: { grant_type: 'client_credentials' },
      headers: basic(clientId, secret),
    });
    assert.equal(works.status, 200);
    const audit = await database().db('audit_events').where({ type: 'app.secret_revealed' });
    assert.equal(audit.length, 1);
    assert.ok(!JSON.stringify(audit).includes(secret), 'the audit trail never holds the secret');
  });

  it('reveals the new secret after a rotation', async () => {
    const rotated = await ada.submit(`${credentials}/rotate`, `${credentials}/rotate`, {
      confirm: 'yes',
    });
    assert.equal(rotated.status, 303);
    const fresh = unescapeHtml(SECRET.exec((await ada.get(credentials)).body)![1]!);
    assert.notEqual(fresh, secret);
    assert.equal((await reveal(ada, PASSWORD)).status, 303);
    assert.equal(unescapeHtml(SECRET.exec((await ada.get(credentials)).body)![1]!), fresh);
    secret = fresh;
  });

  it('refuses a wrong password, a missing CSRF token and another user, revealing nothing', async () => {
    const wrong = await reveal(ada, 'not my password');
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /The password is incorrect/);
    assert.doesNotMatch(wrong.body, SECRET);

    const forged = await ada.post(`${credentials}/reveal`, { password: PASSWORD });
    assert.equal(forged.status, 403);
    assert.doesNotMatch(forged.body, SECRET);

    const bo = new ConsoleClient(service.url);
    await bo.signUp(`bo-${randomBytes(4).toString('hex')}@example.com`, PASSWORD);
    const dashboard = await bo.get('/console');
    const token = /name="csrf_token" value="([^"]+)"/.exec(dashboard.body)![1]!;
    const foreign = await bo.post(`${credentials}/reveal`, {
      csrf_token: token,
      password: PASSWORD,
    });
    assert.equal(foreign.status, 404);
    assert.doesNotMatch(foreign.body, SECRET);
  });

  it('stops guessing after the configured number of wrong passwords', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1)
      statuses.push((await reveal(ada, 'guess')).status);
    // One wrong attempt was counted by the previous test: the third here is over the limit of 3.
    assert.deepEqual(statuses, [401, 401, 429]);
    const right = await reveal(ada, PASSWORD);
    assert.equal(right.status, 429, 'even the right password waits for the window');
  });
});
