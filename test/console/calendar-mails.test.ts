import assert from 'node:assert/strict';
import { ConsoleClient, locationOf } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';

let sequence = 0;
function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${sequence}-${Date.now()}@example.com`;
}

/** Whether the checkbox with this id is ticked on the page. */
function ticked(html: string, id: string): boolean {
  const input = new RegExp(`<input id="${id}"[^>]*>`).exec(html);
  assert.ok(input, `no #${id} on the page`);
  return /\bchecked\b/.test(input[0]);
}

describeEachDialect('console Calendar mails tab', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database());
  });
  after(async () => {
    await service.stop();
  });

  async function ownerWithApp() {
    const browser = new ConsoleClient(service.url);
    await browser.signUp(uniqueEmail('calendar'), PASSWORD, 'Pat Partner');
    const app = await browser.submit('/console/apps/new', '/console/apps/new', {
      name: 'Scheduler',
      client_type: 'confidential',
      redirect_uri_1: 'https://partner.example.com/callback',
    });
    assert.equal(app.status, 303, app.body);
    const base = locationOf(app).replace(/\/credentials$/, '');
    return { browser, base, clientId: decodeURIComponent(base.split('/').pop()!) };
  }

  it('turns an app’s invitations and reminders off and on, recording who did', async () => {
    const { browser, base, clientId } = await ownerWithApp();
    const path = `${base}/calendar-mails`;
    const first = await browser.get(path);
    assert.equal(first.status, 200);
    assert.ok(ticked(first.body, 'calendar-invitations'));
    assert.ok(ticked(first.body, 'calendar-reminders'));
    assert.match(first.body, /Sent 24 hours and 1 hour before the start/);

    // Only reminders stay ticked: the unticked box is absent from the form.
    const saved = await browser.submit(path, path, { reminders: 'on' });
    assert.equal(saved.status, 303, saved.body);
    assert.equal(locationOf(saved), path);
    const after = await browser.get(path);
    assert.match(after.body, /Calendar mail settings saved/);
    assert.ok(!ticked(after.body, 'calendar-invitations'));
    assert.ok(ticked(after.body, 'calendar-reminders'));

    const { db } = database();
    const app = await db('apps').where({ client_id: clientId }).first();
    const row = await db('calendar_mail_app_settings').where({ app_id: app.id }).first();
    assert.deepEqual([Boolean(row.invitations), Boolean(row.reminders)], [false, true]);
    const activity = await browser.get(`${base}/activity`);
    assert.match(activity.body, /Calendar mail settings changed/);
    assert.match(activity.body, /Invitations, updates and cancellations: off/);

    await browser.submit(path, path, { invitations: 'on', reminders: 'on' });
    assert.ok(ticked((await browser.get(path)).body, 'calendar-invitations'));
  });

  it('answers another owner’s app, and a form without its CSRF token, as the other tabs do', async () => {
    const { base } = await ownerWithApp();
    const stranger = (await ownerWithApp()).browser;
    assert.equal((await stranger.get(`${base}/calendar-mails`)).status, 404);
    const forged = await stranger.post(`${base}/calendar-mails`, { invitations: 'on' });
    assert.equal(forged.status, 403);
  });
});
