import assert from 'node:assert/strict';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

describeEachDialect('admin CLI: app apis, enable-api, disable-api', (database) => {
  let clientId = '';
  let appId = '';

  async function run(...argv: string[]): Promise<CliRun> {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stderr += text),
    };
    const code = await runProgram(argv, io, async () => testCliServices(database().db));
    return { code, stdout, stderr };
  }

  async function json(...argv: string[]) {
    const result = await run('--json', ...argv);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  }

  before(async () => {
    const email = `apis-${Date.now()}@example.com`;
    await json('user', 'create', '--email', email, '--password', 'correct horse');
    const created = await json('app', 'create', '--owner', email, '--name', 'Apis');
    clientId = created.client_id;
    appId = created.app.id;
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
    assert.match(unknownApi.stderr, /no API named "jobs"; the APIs are interview, webhooks/);
    const unknownApp = await run('app', 'apis', 'no-such-client');
    assert.equal(unknownApp.code, 1);
    assert.match(unknownApp.stderr, /no app with client id no-such-client/);
    const usage = await run('app', 'enable-api', clientId);
    assert.equal(usage.code, 2);
  });
});
