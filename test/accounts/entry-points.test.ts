import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { runProgram } from '../../src/cli/program.js';
import type { CliServices } from '../../src/cli/services.js';
import type { AuditEventRow } from '../../src/db/rows.js';
import { testCliServices } from '../support/compose.js';
import { ConsoleClient, locationOf, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'https://partner.example.com/callback';
const SECRET = /<code id="client-secret" class="secret">([^<]+)<\/code>/;

/** One way of looking after an app: what an owner does with it from registration to deletion. */
interface EntryPoint {
  register(name: string): Promise<{ clientId: string; secret: string }>;
  reveal(clientId: string): Promise<string>;
  rotate(clientId: string): Promise<string>;
  remove(clientId: string): Promise<void>;
}

/**
 * The CLI and the console compose their services with the same functions, so an app looked
 * after from either one leaves the same audit trail, and a secret sealed by one opens in the
 * other.
 */
describeEachDialect('apps registered with the CLI and on the console', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let browser: ConsoleClient;
  let email: string;
  let ownerId: string;
  let cli: CliServices;

  before(async () => {
    service = await startTestService(database());
    browser = new ConsoleClient(service.url);
    email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    await browser.signUp(email, PASSWORD);
    ownerId = (await database().db('users').where({ email }).first()).id;
    cli = testCliServices(database().db);
  });
  after(async () => {
    await service?.stop();
  });

  const onTheConsole: EntryPoint = {
    async register(name) {
      const created = await browser.submit('/console/apps/new', '/console/apps/new', {
        name,
        client_type: 'confidential',
        redirect_uri_1: REDIRECT,
      });
      assert.equal(created.status, 303, created.body);
      const credentials = locationOf(created);
      return {
        clientId: decodeURIComponent(credentials.split('/')[3]!),
        secret: await shownSecret(credentials),
      };
    },
    async reveal(clientId) {
      const credentials = credentialsOf(clientId);
      const revealed = await browser.submit(credentials, `${credentials}/reveal`, {
        password: PASSWORD,
      });
      assert.equal(revealed.status, 303, revealed.body);
      return shownSecret(credentials);
    },
    async rotate(clientId) {
      const credentials = credentialsOf(clientId);
      const rotated = await browser.submit(`${credentials}/rotate`, `${credentials}/rotate`, {
        confirm: 'yes',
      });
      assert.equal(rotated.status, 303, rotated.body);
      return shownSecret(credentials);
    },
    async remove(clientId) {
      const page = `/console/apps/${clientId}/delete`;
      assert.equal((await browser.submit(page, page, {})).status, 303);
    },
  };

  // `app create` is a command; the other steps are the CLI's services, which its commands call.
  const withTheCli: EntryPoint = {
    async register(name) {
      let stdout = '';
      let stderr = '';
      const io = {
        stdout: (text: string) => void (stdout += text),
        stderr: (text: string) => void (stderr += text),
      };
      const argv = ['--json', 'app', 'create', '--owner', email, '--name', name];
      const code = await runProgram([...argv, '--redirect-uri', REDIRECT], io, async () => cli);
      assert.equal(code, 0, stderr);
      const created = JSON.parse(stdout) as { client_id: string; client_secret: string };
      return { clientId: created.client_id, secret: created.client_secret };
    },
    reveal: (clientId) => cli.apps.revealSecret(ownerId, clientId, PASSWORD),
    async rotate(clientId) {
      return (await cli.apps.rotateSecret(ownerId, clientId)).clientSecret;
    },
    async remove(clientId) {
      await cli.apps.deleteApp(ownerId, clientId);
    },
  };

  /** Registers, reveals, rotates, reveals again and deletes; the app's audit trail. */
  async function lookAfterAnApp(entry: EntryPoint, name: string) {
    const { clientId, secret } = await entry.register(name);
    const { id: appId } = await database().db('apps').where({ client_id: clientId }).first();
    const registered = await auditTrail(appId);
    assert.equal(await entry.reveal(clientId), secret);
    // A secret sealed by either entry point opens on the console.
    assert.equal(await onTheConsole.reveal(clientId), secret);
    const rotated = await entry.rotate(clientId);
    assert.notEqual(rotated, secret);
    assert.equal(await entry.reveal(clientId), rotated);
    await entry.remove(clientId);
    assert.equal(await database().db('apps').where({ client_id: clientId }).first(), undefined);
    return { registered, trail: await auditTrail(appId) };
  }

  /** The app's audit events in order, without what differs by request (time, id, IP). */
  async function auditTrail(appId: string) {
    const rows: AuditEventRow[] = await database()
      .db('audit_events')
      .where({ app_id: appId })
      .orderBy('id');
    return rows.map((row) => ({
      type: row.type,
      actor: row.actor_user_id === ownerId ? 'owner' : row.actor_user_id,
      employer: row.employer_id,
      details: Object.keys(row.details ? (JSON.parse(row.details) as object) : {}).sort(),
    }));
  }

  const REGISTERED_DETAILS = ['client_id', 'client_type', 'grant_types', 'name', 'redirect_uris'];

  it('write the same audit events at registration and at every later change', async () => {
    const consoleApp = await lookAfterAnApp(onTheConsole, 'Console scheduler');
    const cliApp = await lookAfterAnApp(withTheCli, 'CLI scheduler');

    assert.deepEqual(cliApp.registered, consoleApp.registered);
    assert.deepEqual(cliApp.trail, consoleApp.trail);
    const owner = { actor: 'owner', employer: null, details: [] };
    assert.deepEqual(consoleApp.registered, [
      { type: 'app.registered', ...owner, details: REGISTERED_DETAILS },
    ]);
    assert.deepEqual(consoleApp.trail, [
      { type: 'app.registered', ...owner, details: REGISTERED_DETAILS },
      { type: 'app.secret_revealed', ...owner },
      { type: 'app.secret_revealed', ...owner },
      { type: 'app.secret_rotated', ...owner },
      { type: 'app.secret_revealed', ...owner },
      { type: 'app.deleted', ...owner, details: ['client_id', 'name'] },
    ]);
  });

  function credentialsOf(clientId: string): string {
    return `/console/apps/${encodeURIComponent(clientId)}/credentials`;
  }

  /** The secret the credentials page shows once, right after it was made or revealed. */
  async function shownSecret(credentials: string): Promise<string> {
    const page = await browser.get(credentials);
    const match = SECRET.exec(page.body);
    assert.ok(match, `no secret shown on ${credentials}:\n${page.body}`);
    return unescapeHtml(match[1]!);
  }
});
