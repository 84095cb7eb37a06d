import assert from 'node:assert/strict';
import { ConsoleClient, locationOf, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';
import { uniqueEmail } from '../support/write-load.js';

const PASSWORD = 'correct horse battery staple';
const FIRST = 'https://partner.example.com/callback';
const SECOND = 'https://partner.example.com/second';
const SECRET = /<code id="client-secret" class="secret">([^<]*)<\/code>/;

function shownSecret(html: string): string {
  const match = SECRET.exec(html);
  assert.ok(match, `no secret on the page:\n${html}`);
  return unescapeHtml(match[1]!);
}

/** The Activity table's rows, newest first: the event's words and its detail lines. */
function activityRows(html: string): Array<{ what: string; details: string[] }> {
  const rows = [...html.matchAll(/<tr>\s*<td data-label="Time">[^<]*<\/td>([\s\S]*?)<\/tr>/g)];
  return rows.map(([, cells]) => {
    const what = /<td data-label="Event">([^<]*)<\/td>/.exec(cells!)![1]!;
    const details = /<td[^>]*>((?:(?!<\/td>)[\s\S])*)<\/td>\s*$/.exec(cells!)![1]!;
    return {
      what: unescapeHtml(what),
      details: details ? details.split('<br>').map((line) => unescapeHtml(line.trim())) : [],
    };
  });
}

describeEachDialect('console Activity tab', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database());
  });
  after(async () => {
    await service?.stop();
  });

  it('lists every change with its details, and never a secret or the password', async () => {
    const owner = new ConsoleClient(service.url);
    await owner.signUp(uniqueEmail('activity'), PASSWORD);
    const created = await owner.submit('/console/apps/new', '/console/apps/new', {
      name: 'Scheduler',
      client_type: 'confidential',
      redirect_uri_1: FIRST,
      description: 'Books interviews',
      grant_types: ['', 'authorization_code', 'refresh_token', 'client_credentials'],
    });
    assert.equal(created.status, 303, created.body);
    const credentials = locationOf(created);
    const base = credentials.replace(/\/credentials$/, '');
    const registeredSecret = shownSecret((await owner.get(credentials)).body);

    const edited = await owner.submit(base, `${base}/overview`, {
      name: 'Scheduler Pro',
      description: 'Books and moves interviews',
      grant_types: ['', 'authorization_code', 'refresh_token'],
    });
    assert.equal(edited.status, 303, edited.body);
    const page = `${base}/redirect-urls`;
    assert.equal((await owner.submit(page, page, { redirect_uri: SECOND })).status, 303);
    const removed = await owner.submit(`${page}/1/remove`, `${page}/1/remove`, {
      confirm: 'yes',
      redirect_uri: FIRST,
    });
    assert.equal(removed.status, 303, removed.body);
    const rotate = `${base}/credentials/rotate`;
    assert.equal((await owner.submit(rotate, rotate, { confirm: 'yes' })).status, 303);
    const rotatedSecret = shownSecret((await owner.get(credentials)).body);
    const revealed = await owner.submit(credentials, `${credentials}/reveal`, {
      password: PASSWORD,
    });
    assert.equal(revealed.status, 303, revealed.body);
    assert.equal(shownSecret((await owner.get(credentials)).body), rotatedSecret);

    const activity = await owner.get(`${base}/activity`);
    assert.equal(activity.status, 200);
    assert.deepEqual(activityRows(activity.body), [
      { what: 'Client secret revealed on the console', details: [] },
      { what: 'Client secret rotated', details: [] },
      {
        what: 'Redirect URL removed',
        details: [`Redirect URL: ${FIRST}`, 'Position: 1'],
      },
      {
        what: 'Redirect URL added',
        details: [`Redirect URL: ${SECOND}`, 'Position: 2'],
      },
      {
        what: 'App details changed',
        details: [
          'Changed: name, description, grant types',
          'Name: Scheduler → Scheduler Pro',
          'Grant types: authorization_code, refresh_token, client_credentials → authorization_code, refresh_token',
        ],
      },
      {
        what: 'App registered',
        details: [
          'Name: Scheduler',
          'Client type: confidential',
          'Grant types: authorization_code, refresh_token, client_credentials',
          `Redirect URLs: ${FIRST}`,
        ],
      },
    ]);

    const rows = await database().db('audit_events');
    for (const hidden of [registeredSecret, rotatedSecret, PASSWORD]) {
      assert.ok(!activity.body.includes(hidden), 'no secret or password on the Activity tab');
      assert.ok(!JSON.stringify(rows).includes(hidden), 'no secret or password in audit_events');
    }
  });

  it('records no change when an edit changes nothing', async () => {
    const owner = new ConsoleClient(service.url);
    await owner.signUp(uniqueEmail('unchanged'), PASSWORD);
    const created = await owner.submit('/console/apps/new', '/console/apps/new', {
      name: 'Same',
      client_type: 'public',
      redirect_uri_1: FIRST,
      grant_types: ['', 'authorization_code'],
    });
    const base = locationOf(created).replace(/\/credentials$/, '');
    const saved = await owner.submit(base, `${base}/overview`, {
      name: 'Same',
      description: '',
      grant_types: ['', 'authorization_code'],
    });
    assert.equal(saved.status, 303);
    const events = activityRows((await owner.get(`${base}/activity`)).body);
    assert.deepEqual(
      events.map((event) => event.what),
      ['App registered'],
    );
  });
});
