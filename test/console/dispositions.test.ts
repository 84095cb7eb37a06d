import assert from 'node:assert/strict';
import { DispositionStore } from '../../src/disposition-sync/disposition-store.js';
import { consoleOwnerWithApp, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';

/** The application cells of the tab's table, in order. */
function applications(html: string): string[] {
  return [...html.matchAll(/<td data-label="Application" class="long-value">([^<]*)<\/td>/g)].map(
    (match) => unescapeHtml(match[1]!),
  );
}

describeEachDialect('console Dispositions tab', (database) => {
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

  /** `count` dispositions of the app's own token, one a minute: as the API stores them. */
  async function storeDispositions(appId: string, count: number) {
    const rows = Array.from({ length: count }, (_, index) => ({
      app_id: appId,
      employer_id: null,
      dedupe_key: `key-${appId}-${index}`,
      identified_by: JSON.stringify({ indeedApplyID: `apply-${String(index).padStart(3, '0')}` }),
      disposition_status: 'NEW' as const,
      raw_disposition_status: 'Received',
      raw_disposition_details: null,
      ats_name: 'Acme <ATS>',
      status_changed_at: Date.UTC(2025, 0, 1, 0, index),
      status_change_offset: 0,
      application_source_name: null,
      received_at: Date.UTC(2025, 5, 1),
    }));
    await new DispositionStore(database().db).insertNew(rows);
  }

  it('lists what the app sent, the latest change first, 50 a page, read only', async () => {
    const { browser, base, appId } = await ownerWithApp('dispositions');
    const path = `${base}/dispositions`;
    const empty = await browser.get(path);
    assert.equal(empty.status, 200);
    assert.match(empty.body, /This app has sent no dispositions/);
    assert.match(empty.body, /aria-current="page"[^>]*>Dispositions|Dispositions<\/a>/);

    await storeDispositions(appId, 55);
    const first = await browser.get(path);
    const shown = applications(first.body);
    assert.equal(shown.length, 50);
    assert.equal(shown[0], 'Indeed Apply ID apply-054');
    assert.match(first.body, /<code>NEW<\/code>/);
    assert.match(first.body, /Acme &lt;ATS&gt;/, 'text is escaped');
    assert.match(first.body, /The app&#39;s own token|The app's own token/);
    assert.match(first.body, /2025-01-01 00:54 UTC/);
    assert.doesNotMatch(first.body, /<form[^>]*method="post"[^>]*dispositions/i);

    const older = /href="([^"]*\?after=[^"]*)">Older dispositions/.exec(first.body);
    assert.ok(older, 'a link to the next page');
    const second = await browser.get(unescapeHtml(older[1]!));
    assert.deepEqual(applications(second.body), [
      'Indeed Apply ID apply-004',
      'Indeed Apply ID apply-003',
      'Indeed Apply ID apply-002',
      'Indeed Apply ID apply-001',
      'Indeed Apply ID apply-000',
    ]);
    assert.doesNotMatch(second.body, /Older dispositions/);
    assert.match(second.body, /Latest dispositions/);

    // A cursor from nowhere shows the first page.
    const bogus = await browser.get(`${path}?after=bm9wZQ`);
    assert.equal(applications(bogus.body)[0], 'Indeed Apply ID apply-054');
  });

  it('shows another owner’s app to nobody else', async () => {
    const { base } = await ownerWithApp('owner');
    const { browser } = await ownerWithApp('stranger');
    const page = await browser.get(`${base}/dispositions`);
    assert.equal(page.status, 404);
  });
});
