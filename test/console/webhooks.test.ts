import assert from 'node:assert/strict';
import { createSharedDependencies } from '../../src/shared-dependencies.js';
import { isEndpointSecret } from '../../src/webhooks/signature.js';
import type { WebhookEndpointRow } from '../../src/db/rows.js';
import {
  ConsoleClient,
  formCsrfToken,
  locationOf,
  shownCode,
  unescapeHtml,
} from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import { startTestService, TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';
const RECEIVER = 'https://receiver.example/hooks';

let sequence = 0;
function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${sequence}-${Date.now()}@example.com`;
}

/** The visible text of an element with this id (tags dropped, entities read). */
function textOf(html: string, id: string): string {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html);
  assert.ok(match, `no #${id} on the page`);
  return unescapeHtml(match[1]!.replace(/<[^>]*>/g, '')).trim();
}

describeEachDialect('console Webhooks tab', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let browser: ConsoleClient;
  let base = '';
  let employerId = '';

  before(async () => {
    service = await startTestService(database(), { env: { WEBHOOK_ENDPOINTS_PER_APP: '2' } });
  });
  after(async () => {
    await service.stop();
  });

  beforeEach(async () => {
    browser = new ConsoleClient(service.url);
    await browser.signUp(uniqueEmail('hooks'), PASSWORD, 'Pat Partner');
    const employer = await browser.submit('/console/employers', '/console/employers', {
      name: 'Acme Hiring',
    });
    assert.equal(employer.status, 303, employer.body);
    employerId = decodeURIComponent(locationOf(employer).split('/').pop()!);
    const app = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'Scheduler',
      client_type: 'confidential',
      redirect_uri_1: 'https://partner.example.com/callback',
      grant_types: ['', 'client_credentials'],
    });
    assert.equal(app.status, 303, app.body);
    base = locationOf(app).replace(/\/credentials$/, '');
  });

  async function addEndpoint(fields: Record<string, string | string[]> = {}) {
    const created = await browser.submit(`${base}/webhooks`, `${base}/webhooks`, {
      url: RECEIVER,
      description: 'ATS',
      event_types: ['interview.event.created.v1', 'interview.event.ended.v1'],
      employer_ids: [employerId],
      ...fields,
    });
    assert.equal(created.status, 303, created.body);
    const path = locationOf(created);
    return { path, endpointId: path.split('/').pop()! };
  }

  /** POSTs the endpoint page's form that posts to `action`. */
  function press(page: string, action: string, fields: Record<string, string> = {}) {
    return browser.submit(page, action, fields);
  }

  function endpointRow(id: string): Promise<WebhookEndpointRow> {
    return database().db('webhook_endpoints').where({ id }).first();
  }

  it('adds an endpoint with filters and shows its secret once, sealed at rest', async () => {
    const tab = await browser.get(`${base}/webhooks`);
    assert.equal(tab.status, 200);
    assert.match(tab.body, /aria-current="page">Webhooks</);
    assert.match(tab.body, /no webhook endpoints yet/);
    assert.match(tab.body, /Acme Hiring/, "the owner's employers are offered");

    const { path, endpointId } = await addEndpoint();
    const first = await browser.get(path);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.match(first.body, /Endpoint added/);
    const secret = shownCode(first.body, 'webhook-secret');
    assert.ok(secret && isEndpointSecret(secret), first.body);
    assert.equal(textOf(first.body, 'endpoint-state'), 'Enabled');
    assert.match(first.body, /interview\.event\.created\.v1, interview\.event\.ended\.v1/);

    const again = await browser.get(path);
    assert.equal(shownCode(again.body, 'webhook-secret'), undefined, 'shown only once');

    const row = await endpointRow(endpointId);
    assert.equal(row.employer_ids, `,${employerId},`);
    assert.ok(!JSON.stringify(row).includes(secret.slice(6)));
    const shared = createSharedDependencies({
      db: database().db,
      clock: { now: () => Date.now() },
      logger: silentLogger,
      config: service.config,
      keyEncryptionSecret: TEST_KEY_ENCRYPTION_SECRET,
    });
    assert.equal(shared.boxes.webhookSecrets.open(row.secret_sealed), secret);

    const list = await browser.get(`${base}/webhooks`);
    assert.match(list.body, new RegExp(`href="${path}">${RECEIVER}</a>`));
    assert.match(list.body, /Acme Hiring/);
  });

  it('refuses a bad endpoint beside its fields, and the endpoint past the cap', async () => {
    const refused = await browser.submit(`${base}/webhooks`, `${base}/webhooks`, {
      url: 'ftp://receiver.example/',
      event_types: ['interview.event.created.v1', 'made.up.v1'],
      employer_ids: ['not-an-employer'],
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /There are 3 problems/);
    assert.match(refused.body, /href="#endpoint-url">The URL must start with https:\/\//);
    assert.match(refused.body, /Unknown event type &quot;made\.up\.v1&quot;/);
    assert.match(refused.body, /No employer with id &quot;not-an-employer&quot;/);
    assert.match(refused.body, /value="ftp:\/\/receiver.example\/"/, 'what was typed stays');

    await addEndpoint();
    await addEndpoint({ url: `${RECEIVER}/2` });
    const full = await browser.get(`${base}/webhooks`);
    assert.match(full.body, /the most endpoints allowed \(2\)/);
    const page = await browser.get(`${base}/webhooks/x`);
    assert.equal(page.status, 404);
  });

  it('sends a test event, lists it in the delivery log, resends and recovers', async () => {
    const { path, endpointId } = await addEndpoint();
    const sent = await press(path, `${path}/test`);
    assert.equal(sent.status, 303, sent.body);
    assert.equal(locationOf(sent), path);
    const page = await browser.get(path);
    assert.match(page.body, /Test event queued/);
    assert.match(page.body, /<code>webhook\.test\.v1<\/code>/);
    const link = /href="([^"]*\/deliveries\/(\d+))"/.exec(page.body);
    assert.ok(link, page.body);
    const [, deliveryPath, deliveryId] = link;

    const delivery = await browser.get(deliveryPath!);
    assert.equal(delivery.status, 200);
    assert.match(delivery.body, /Delivery \d+/);
    assert.match(delivery.body, /msg_/);
    // Attempts as the delivery worker records them.
    await database()
      .db('webhook_attempts')
      .insert({
        delivery_id: Number(deliveryId),
        attempted_at: Date.now(),
        status_code: 500,
        latency_ms: 42,
        response_excerpt: '<h1>down</h1>',
        error: null,
      });
    await database()
      .db('webhook_deliveries')
      .where({ id: Number(deliveryId) })
      .update({ status: 'failed', attempt_count: 1, last_status_code: 500 });
    const failed = await browser.get(deliveryPath!);
    assert.match(failed.body, /Failed/);
    assert.match(failed.body, /42 ms/);
    assert.match(failed.body, /&lt;h1&gt;down&lt;\/h1&gt;/, 'the answer is escaped');

    const resent = await press(deliveryPath!, `${deliveryPath}/resend`);
    assert.equal(resent.status, 303, resent.body);
    const pending = await browser.get(locationOf(resent));
    assert.match(pending.body, /same webhook-id/);
    assert.equal(textOf(pending.body, 'delivery-status'), 'Pending');

    await database()
      .db('webhook_deliveries')
      .where({ id: Number(deliveryId) })
      .update({ status: 'failed' });
    const since = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
    const recovered = await press(path, `${path}/recover`, { since });
    assert.equal(recovered.status, 303, recovered.body);
    const row = await database()
      .db('webhook_deliveries')
      .where({ id: Number(deliveryId) })
      .first();
    assert.equal(row.status, 'pending');
    const badSince = await press(path, `${path}/recover`, { since: 'yesterday' });
    assert.equal(badSince.status, 400);
    assert.match(badSince.body, /as a date and time/);

    const other = new ConsoleClient(service.url);
    await other.signUp(uniqueEmail('other'), PASSWORD);
    assert.equal((await other.get(path)).status, 404);
    assert.equal((await other.get(deliveryPath!)).status, 404);
    assert.ok(endpointId);
  });

  it('rotates with an overlap, disables with the reason shown, enables, and deletes', async () => {
    const { path, endpointId } = await addEndpoint();
    const firstView = await browser.get(path);
    const first = shownCode(firstView.body, 'webhook-secret');

    const rotated = await press(path, `${path}/rotate`);
    assert.equal(rotated.status, 303, rotated.body);
    const shown = await browser.get(path);
    const second = shownCode(shown.body, 'webhook-secret');
    assert.ok(second && isEndpointSecret(second));
    assert.notEqual(second, first);
    assert.match(shown.body, /the previous secret also signs until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);

    const disabled = await press(path, `${path}/disable`);
    assert.equal(disabled.status, 303);
    const off = await browser.get(path);
    assert.match(textOf(off.body, 'endpoint-state'), /^Disabled: disabled by its owner \(since /);
    const test = await browser.post(`${path}/test`, {
      csrf_token: formCsrfToken(off.body, `${path}/rotate`),
    });
    assert.equal(test.status, 400);
    assert.match(test.body, /The endpoint is disabled; enable it to send a test event/);

    // As the delivery worker disables an endpoint that answered 410.
    await database()
      .db('webhook_endpoints')
      .where({ id: endpointId })
      .update({ disabled_reason: 'answered 410 Gone' });
    const list = await browser.get(`${base}/webhooks`);
    assert.match(list.body, /Disabled: answered 410 Gone/);

    const enabled = await press(path, `${path}/enable`);
    assert.equal(enabled.status, 303);
    assert.equal(textOf((await browser.get(path)).body, 'endpoint-state'), 'Enabled');

    const edited = await press(path, path, {
      url: `${RECEIVER}/v2`,
      description: '',
      event_types: '',
    });
    assert.equal(edited.status, 303, edited.body);
    assert.equal((await endpointRow(endpointId)).url, `${RECEIVER}/v2`);
    assert.equal((await endpointRow(endpointId)).event_types, '');

    const noCsrf = await browser.post(`${path}/delete`, { confirm: 'yes' });
    assert.equal(noCsrf.status, 403);
    const confirm = await browser.get(`${path}/delete`);
    assert.equal(confirm.status, 200);
    const deleted = await press(`${path}/delete`, `${path}/delete`, { confirm: 'yes' });
    assert.equal(deleted.status, 303);
    assert.equal(locationOf(deleted), `${base}/webhooks`);
    assert.equal(await endpointRow(endpointId), undefined);

    const activity = await browser.get(`${base}/activity`);
    for (const words of [
      'Webhook endpoint added',
      'Webhook signing secret rotated',
      'Webhook endpoint disabled',
      'Webhook endpoint enabled',
      'Webhook endpoint changed',
      'Webhook endpoint deleted',
    ]) {
      assert.match(activity.body, new RegExp(words), words);
    }
    assert.ok(!activity.body.includes(first!.slice(6)));
    assert.ok(!activity.body.includes(second.slice(6)));
  });
});
