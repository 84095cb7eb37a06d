import assert from 'node:assert/strict';
import { consoleOwnerWithApp, unescapeHtml } from '../support/console-client.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { writerInput } from '../support/job-postings.js';
import { startTestService } from '../support/service.js';

/** The titles of the tab's table, in order. */
function titles(html: string): string[] {
  return [...html.matchAll(/<td data-label="Title" class="long-value">([^<]*)<\/td>/g)].map(
    (match) => unescapeHtml(match[1]!),
  );
}

describeEachDialect('console Job postings tab', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database());
  });
  after(async () => {
    await service.stop();
  });

  const ownerWithApp = (label: string) => consoleOwnerWithApp(service.url, appIdOf, label);
  const appIdOf = async (clientId: string) =>
    ((await database().db('apps').where({ client_id: clientId }).first()) as { id: string }).id;

  it('lists what the app posted through Job Sync, the latest change first, 50 a page', async () => {
    const { browser, base, email, appId } = await ownerWithApp('postings');
    const path = `${base}/postings`;
    const empty = await browser.get(path);
    assert.equal(empty.status, 200);
    assert.match(empty.body, /This app has posted no jobs/);

    const services = testCliServices(database().db);
    const { employer } = await services.accounts.createEmployer({
      name: 'Acme <Robotics>',
      memberEmails: [email],
    });
    const owner = { appId, employerId: employer.id };
    // 55 postings, 11 requests of 5, each request a moment after the one before.
    for (let batch = 0; batch < 11; batch++) {
      const inputs = Array.from({ length: 5 }, (_, i) => {
        const index = batch * 5 + i;
        return writerInput(`REQ-${index}`, `Engineer ${String(index).padStart(2, '0')}`);
      });
      const outcomes = await services.jobs.postings.createOrUpdate(owner, inputs);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.problem?.message ?? null),
        inputs.map(() => null),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }

    const first = await browser.get(path);
    const shown = titles(first.body);
    assert.equal(shown.length, 50);
    assert.deepEqual(
      shown.slice(0, 5).sort(),
      ['Engineer 50', 'Engineer 51', 'Engineer 52', 'Engineer 53', 'Engineer 54'],
      'the latest request first',
    );
    assert.match(first.body, /55 in all/);
    assert.match(first.body, /<code>PENDING<\/code>/, 'not indexed yet');
    const employerCell = /data-label="Employer"[^>]*>([^<]*)</.exec(first.body)?.[1];
    assert.equal(employerCell, 'Acme &lt;Robotics&gt;', 'the employer by name, escaped');
    assert.match(first.body, /id="posting-[0-9a-f-]{36}"/, 'a row viewJob can point at');
    assert.doesNotMatch(first.body, /<form[^>]*method="post"[^>]*postings/i);

    const older = /href="([^"]*\?after=[^"]*)">Older postings/.exec(first.body);
    assert.ok(older, 'a link to the next page');
    const second = await browser.get(unescapeHtml(older[1]!));
    assert.deepEqual(titles(second.body).sort(), [
      'Engineer 00',
      'Engineer 01',
      'Engineer 02',
      'Engineer 03',
      'Engineer 04',
    ]);
    assert.match(second.body, /Latest postings/);
    assert.doesNotMatch(second.body, /Older postings/);

    // A cursor from nowhere shows the first page.
    const bogus = await browser.get(`${path}?after=bm9wZQ`);
    assert.equal(titles(bogus.body).length, 50);
  });

  it('shows another owner’s app to nobody else', async () => {
    const { base } = await ownerWithApp('owner');
    const { browser } = await ownerWithApp('stranger');
    const page = await browser.get(`${base}/postings`);
    assert.equal(page.status, 404);
  });
});
