import assert from 'node:assert/strict';
import { DEFAULT_COST_BUDGET_UNITS } from '../../src/config.js';
import { ConsoleClient, locationOf } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';

describeEachDialect('console API budget tab', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database());
  });
  after(async () => {
    await service.stop();
  });

  it("shows the default, saves the app's own budget (audited), refuses a bad one, and goes back to the default", async () => {
    const browser = new ConsoleClient(service.url);
    await browser.signUp(`budget-${Date.now()}@example.com`, PASSWORD, 'Pat Partner');
    const app = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'Budgeted',
      client_type: 'confidential',
      redirect_uri_1: 'https://partner.example.com/callback',
      grant_types: ['', 'client_credentials'],
    });
    assert.equal(app.status, 303, app.body);
    const base = locationOf(app).replace(/\/credentials$/, '');
    const page = `${base}/budget`;

    const shown = await browser.get(page);
    assert.equal(shown.status, 200);
    assert.match(shown.body, />API budget</);
    const defaultUnits = DEFAULT_COST_BUDGET_UNITS.toLocaleString('en-US');
    assert.match(shown.body, new RegExp(`${defaultUnits} cost units, the service's default`));

    const saved = await browser.submit(page, page, { units: '2500' });
    assert.equal(saved.status, 303, saved.body);
    assert.equal(locationOf(saved), page);
    const after = await browser.get(page);
    assert.match(after.body, /2,500 cost units, the app&#39;s own|2,500 cost units, the app's own/);
    assert.match(after.body, /Budget saved/);

    const bad = await browser.submit(page, page, { units: 'plenty' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /The budget must be a whole number of cost units/);
    assert.match(bad.body, /aria-invalid="true"/);

    const back = await browser.submit(page, page, { units: '' });
    assert.equal(back.status, 303);
    assert.match((await browser.get(page)).body, /the service&#39;s default|the service's default/);

    const clientId = decodeURIComponent(base.split('/').pop()!);
    const row = await database().db('apps').where({ client_id: clientId }).first();
    const audited = await database()
      .db('audit_events')
      .where({ app_id: row.id, type: 'app.cost_budget_changed' })
      .orderBy('id');
    assert.equal(audited.length, 2);
    assert.ok(audited.every((event: { actor_user_id: string | null }) => event.actor_user_id));
    const activity = await browser.get(`${base}/activity`);
    assert.match(activity.body, /API budget changed/);
  });
});
