import assert from 'node:assert/strict';
import { ConsoleClient, locationOf } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';
import { uniqueEmail } from '../support/write-load.js';

const PASSWORD = 'correct horse battery staple';
const STATUS = /<p class="notice success-notice" role="status">([^<]*)<\/p>/;

function notice(html: string): string | undefined {
  return STATUS.exec(html)?.[1];
}

describeEachDialect('console success notices', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database());
  });
  after(async () => {
    await service?.stop();
  });

  it('says what succeeded on the next page only, in fixed words', async () => {
    const owner = new ConsoleClient(service.url);
    const email = uniqueEmail('notices');
    const signedUp = await owner.submit('/console/sign-up', '/console/sign-up', {
      email,
      password: PASSWORD,
      name: 'Nora Notice',
    });
    assert.equal(signedUp.status, 303);
    assert.equal(
      notice((await owner.get(locationOf(signedUp))).body),
      'Check your email: we sent a message to the address you entered. To use the console, sign in.',
    );
    assert.equal(notice((await owner.get('/console/sign-in')).body), undefined, 'shown once');
    await owner.signIn(email, PASSWORD);

    const created = await owner.submit('/console/employers', '/console/employers', {
      name: 'Notice Hiring',
    });
    assert.equal(created.status, 303);
    const detail = locationOf(created);
    assert.equal(notice((await owner.get(detail)).body), 'Employer created. You are its admin.');

    const colleague = uniqueEmail('colleague');
    await new ConsoleClient(service.url).signUp(colleague, PASSWORD);
    const added = await owner.submit(detail, `${detail}/members`, {
      email: colleague,
      role: 'member',
    });
    assert.equal(added.status, 303);
    assert.equal(notice((await owner.get(detail)).body), 'Member added.');
    assert.equal(notice((await owner.get(detail)).body), undefined);
  });

  it('shows nothing for a notice it does not know, and never on an error page', async () => {
    const owner = new ConsoleClient(service.url);
    await owner.signUp(uniqueEmail('forged'), PASSWORD);
    await owner.get('/console');
    const session = owner.cookie('hpa_session')!;
    const as = (value: string) =>
      fetch(new URL('/console', service.url), {
        headers: { cookie: `hpa_session=${session}; hpa_console_notice=${value}` },
      });
    for (const forged of ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'constructor', '__proto__']) {
      const page = await as(forged);
      assert.equal(page.status, 200);
      const body = await page.text();
      assert.equal(notice(body), undefined, forged);
      assert.ok(!body.includes('<script>alert'), 'nothing from the request is shown');
    }
    const known = await (await as('app-deleted')).text();
    assert.match(notice(known) ?? '', /^App deleted\./);

    const missing = await fetch(
      new URL('/console/apps/0123456789abcdef0123456789abcdef', service.url),
      {
        headers: { cookie: `hpa_session=${session}; hpa_console_notice=app-deleted` },
      },
    );
    assert.equal(missing.status, 404);
    assert.equal(notice(await missing.text()), undefined);
  });
});
