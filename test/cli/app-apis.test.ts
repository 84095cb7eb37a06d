import assert from 'node:assert/strict';
import { describeEachDialect } from '../support/databases.js';
import { inProcessCli } from './in-process-cli.js';

describeEachDialect('admin CLI: app apis, enable-api, disable-api', (database) => {
  let clientId = '';
  let appId = '';

  const { run, json, appOfNewOwner } = inProcessCli(database);

  before(async () => {
    ({ clientId, appId } = await appOfNewOwner('Apis'));
  });

  it('lists every API with its default, then what the owner chose', async () => {
    const listed = await json('app', 'apis', clientId);
    assert.equal(listed.client_id, clientId);
    assert.deepEqual(
      listed.apis.map((api: { api: string; enabled: boolean; by_default: boolean }) => [
        api.api,
        api.enabled,
        api.by_default,
      ]),
      [
        ['interview', true, true],
        ['webhooks', true, true],
        // Off until the owner enables them.
        ['disposition-sync', false, true],
        ['job-search', false, true],
        ['job-sync', false, true],
        ['employer-data', false, true],
      ],
    );
    const text = await run('app', 'apis', clientId);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /interview\s+enabled\s+Interview API \(default\)/);
  });

  it('disables and enables an API, audited once per change', async () => {
    const disabled = await json('app', 'disable-api', clientId, 'webhooks');
    assert.equal(disabled.changed, true);
    assert.equal(disabled.api.enabled, false);
    assert.equal(disabled.api.by_default, false);
    const again = await run('app', 'disable-api', clientId, 'webhooks');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already disabled/);
    const listed = await json('app', 'apis', clientId);
    assert.equal(listed.apis[1].enabled, false);
    assert.match(listed.apis[1].changed_at, /^\d{4}-\d\d-\d\dT/);

    const enabled = await run('app', 'enable-api', clientId, 'webhooks');
    assert.equal(enabled.code, 0);
    assert.match(enabled.stdout, /Enabled the Webhook management API \(webhooks\)/);

    const audits = await database()
      .db('audit_events')
      .where({ app_id: appId })
      .whereIn('type', ['app.api_enabled', 'app.api_disabled'])
      .orderBy('id');
    assert.deepEqual(
      audits.map((row: { type: string; details: string }) => [row.type, JSON.parse(row.details)]),
      [
        ['app.api_disabled', { api: 'webhooks' }],
        ['app.api_enabled', { api: 'webhooks' }],
      ],
    );
  });

  it('refuses an unknown API or app with a clear message and exit code 1', async () => {
    const unknownApi = await run('app', 'enable-api', clientId, 'jobs');
    assert.equal(unknownApi.code, 1);
    assert.match(
      unknownApi.stderr,
      /no API named "jobs"; the APIs are interview, webhooks, disposition-sync/,
    );
    const unknownApp = await run('app', 'apis', 'no-such-client');
    assert.equal(unknownApp.code, 1);
    assert.match(unknownApp.stderr, /no app with client id no-such-client/);
    const usage = await run('app', 'enable-api', clientId);
    assert.equal(usage.code, 2);
  });
});
