import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/db/database.js';
import { ConsoleClient, formCsrfToken, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';
const LIST = '/console/employers';

function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

async function counts(db: Database): Promise<{ employers: number; memberships: number }> {
  const [employers] = await db('employers').count({ n: '*' });
  const [memberships] = await db('memberships').count({ n: '*' });
  return { employers: Number(employers?.n), memberships: Number(memberships?.n) };
}

/** Creates an employer through the console and returns its id, read from the page it lands on. */
async function createEmployer(client: ConsoleClient, name: string): Promise<string> {
  const created = await client.submit(LIST, LIST, { name });
  assert.equal(created.status, 303, created.body);
  const target = created.headers.get('location') ?? '';
  assert.match(target, /^\/console\/employers\/[0-9a-f-]{36}$/);
  const page = await client.get(target);
  assert.equal(page.status, 200);
  const shown = /<code id="employer-id">([^<]*)<\/code>/.exec(page.body);
  assert.ok(shown, page.body);
  return unescapeHtml(shown[1]!);
}

describeEachDialect('console employers', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let ada: ConsoleClient;
  let bo: ConsoleClient;
  let cy: ConsoleClient;
  const emails = { ada: uniqueEmail('ada'), bo: uniqueEmail('bo'), cy: uniqueEmail('cy') };

  before(async () => {
    service = await startTestService(database());
    ada = new ConsoleClient(service.url);
    bo = new ConsoleClient(service.url);
    cy = new ConsoleClient(service.url);
    await ada.signUp(emails.ada, PASSWORD);
    await bo.signUp(emails.bo, PASSWORD);
    await cy.signUp(emails.cy, PASSWORD);
  });
  after(async () => {
    await service?.stop();
  });

  it('sends a visitor who is not signed in to the sign-in page', async () => {
    const visitor = new ConsoleClient(service.url);
    const response = await visitor.get(LIST);
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/console/sign-in');
  });

  it('lists no employers at first, explains what they are, and creates one with the user as admin', async () => {
    const empty = await ada.get(LIST);
    assert.equal(empty.status, 200);
    assert.match(empty.body, /You do not belong to any employer yet/);
    assert.match(empty.body, /appinfo lists exactly these/);
    assert.match(empty.body, /<label for="employer-name">Employer name<\/label>/);
    assert.match(empty.body, /<a href="\/console\/employers">Employers<\/a>/);

    const id = await createEmployer(ada, 'Acme <Hiring> & Co');
    const detail = await ada.get(`${LIST}/${id}`);
    assert.match(detail.body, /<h1>Acme &lt;Hiring&gt; &amp; Co<\/h1>/);
    assert.ok(!detail.body.includes('<Hiring>'), 'the name is escaped');
    assert.match(detail.body, new RegExp(`${emails.ada.replace('.', '\\.')} \\(you\\)`));
    assert.match(detail.body, /Admin/);

    const list = await ada.get(LIST);
    assert.ok(list.body.includes(`>${id}</code>`), 'the list shows the id');
    assert.match(list.body, /Acme &lt;Hiring&gt; &amp; Co/);
    const membership = await database().db('memberships').where({ employer_id: id }).first();
    assert.equal(membership.role, 'admin');
  });

  it('refuses an empty employer name and writes nothing', async () => {
    const before = await counts(database().db);
    const refused = await ada.submit(LIST, LIST, { name: '   ' });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /There is a problem/);
    assert.match(refused.body, /Name must not be empty\./);
    assert.match(refused.body, /id="employer-name"[^>]*aria-invalid="true"/);
    assert.deepEqual(await counts(database().db), before);
  });

  it("never shows or changes another user's employer by URL", async () => {
    const id = await createEmployer(ada, 'Private Employer');
    const before = await counts(database().db);

    const unknown = await bo.get(`${LIST}/00000000-0000-4000-8000-000000000000`);
    const foreign = await bo.get(`${LIST}/${id}`);
    assert.equal(unknown.status, 404);
    assert.equal(foreign.status, 404);
    const withoutReference = (html: string) => html.replace(/Reference <code>[^<]*<\/code>/, '');
    assert.equal(
      withoutReference(foreign.body),
      withoutReference(unknown.body),
      'indistinguishable from an unknown id',
    );
    assert.ok(!foreign.body.includes('Private Employer'));
    assert.ok(!(await bo.get(LIST)).body.includes(id));

    // A valid session token of Bo's, sent to Ada's employer.
    const token = formCsrfToken((await bo.get(LIST)).body, LIST);
    const added = await bo.post(`${LIST}/${id}/members`, {
      csrf_token: token,
      email: emails.bo,
      role: 'admin',
    });
    assert.equal(added.status, 404);
    assert.deepEqual(await counts(database().db), before);
  });

  it('lets an admin add members; a member sees the employer but cannot add anyone', async () => {
    const id = await createEmployer(ada, 'Shared Employer');
    const detail = `${LIST}/${id}`;
    const members = `${detail}/members`;
    const added = await ada.submit(detail, members, {
      email: emails.bo.toUpperCase(),
      role: 'member',
    });
    assert.equal(added.status, 303);
    assert.equal(added.headers.get('location'), detail);
    const page = await ada.get(detail);
    assert.ok(page.body.includes(emails.bo), page.body);

    const seen = await bo.get(detail);
    assert.equal(seen.status, 200);
    assert.match(seen.body, /Only admins of this employer can add members/);
    assert.ok(!seen.body.includes(`action="${members}"`), 'no add-member form for a member');
    assert.ok((await bo.get(LIST)).body.includes(id), 'the employer is in the member list');

    const before = await counts(database().db);
    const token = formCsrfToken(seen.body, '/console/sign-out');
    const refused = await bo.post(members, { csrf_token: token, email: emails.cy, role: 'admin' });
    assert.equal(refused.status, 403);
    assert.match(refused.body, /Only admins can add members/);
    assert.deepEqual(await counts(database().db), before);
    assert.equal((await cy.get(detail)).status, 404);
  });

  it('explains an unknown email, an existing member and a blank email, writing nothing', async () => {
    const id = await createEmployer(ada, 'Careful Employer');
    const detail = `${LIST}/${id}`;
    const members = `${detail}/members`;
    const before = await counts(database().db);

    const unknown = await ada.submit(detail, members, {
      email: 'nobody@example.com',
      role: 'member',
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body, /There is no account with the email nobody@example\.com/);
    assert.match(unknown.body, /value="nobody@example.com"/);

    const already = await ada.submit(detail, members, { email: emails.ada, role: 'member' });
    assert.equal(already.status, 409);
    assert.match(already.body, /is already a member of this employer/);

    const blank = await ada.submit(detail, members, { email: ' ', role: 'member' });
    assert.equal(blank.status, 400);
    assert.match(blank.body, /Enter the email address of the person to add/);

    const badRole = await ada.submit(detail, members, { email: emails.cy, role: 'owner' });
    assert.equal(badRole.status, 400);
    assert.match(badRole.body, /Choose whether the new member is an admin or a member/);

    assert.deepEqual(await counts(database().db), before);
  });

  it('refuses forms without a valid CSRF token (403) and writes nothing', async () => {
    const id = await createEmployer(ada, 'Guarded Employer');
    const before = await counts(database().db);
    const attempts: Array<Record<string, string>> = [{}, { csrf_token: 'forged' }];
    for (const csrf of attempts) {
      const created = await ada.post(LIST, { ...csrf, name: 'Forged Employer' });
      assert.equal(created.status, 403);
      const added = await ada.post(`${LIST}/${id}/members`, {
        ...csrf,
        email: emails.cy,
        role: 'admin',
      });
      assert.equal(added.status, 403);
    }
    assert.deepEqual(await counts(database().db), before);
  });
});

describeEachDialect('console sign-in and sign-up rate limits', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database(), { env: { RATE_LIMIT_SIGN_IN_MAX: '3' } });
  });
  after(async () => {
    await service?.stop();
  });

  it('answers the fourth failed sign-in with 429 and Retry-After', async () => {
    const email = uniqueEmail('target');
    await new ConsoleClient(service.url).signUp(email, PASSWORD);
    const client = new ConsoleClient(service.url);
    const attempt = () =>
      client.submit('/console/sign-in', '/console/sign-in', { email, password: 'wrong password' });
    for (let failed = 1; failed <= 3; failed++) assert.equal((await attempt()).status, 401);
    const limited = await attempt();
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.match(limited.body, /Too many failed sign-in attempts/);
    // Even the right password waits until the window has passed.
    const right = await client.submit('/console/sign-in', '/console/sign-in', {
      email,
      password: PASSWORD,
    });
    assert.equal(right.status, 429);
  });

  it('answers sign-ups beyond the limit with 429 and Retry-After, creating no account', async () => {
    // The previous test used one sign-up from this address; two more are allowed.
    for (let index = 0; index < 2; index++) {
      await new ConsoleClient(service.url).signUp(uniqueEmail('new'), PASSWORD);
    }
    const [before] = await database().db('users').count({ n: '*' });
    const email = uniqueEmail('late');
    const limited = await new ConsoleClient(service.url).submit(
      '/console/sign-up',
      '/console/sign-up',
      { email, password: PASSWORD, name: 'Late Comer' },
    );
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.match(limited.body, /Too many sign-up attempts/);
    const [after] = await database().db('users').count({ n: '*' });
    assert.equal(Number(after?.n), Number(before?.n));
    assert.equal(
      await database().db('users').where({ email_normalized: email }).first(),
      undefined,
    );
  });
});
