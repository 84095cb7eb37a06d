import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import { verifyPassword } from '../../src/security/passwords.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, callApi } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';

const execFileAsync = promisify(execFile);

describeEachDialect('admin CLI demo', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    service = await startTestService(database());
  });
  after(async () => {
    await service?.stop();
  });

  async function demo(...flags: string[]) {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stderr += text),
    };
    const code = await runProgram([...flags, 'demo'], io, async () =>
      testCliServices(database().db, {
        env: { AUTH_URL: service.config.authUrl, API_URL: service.config.apiUrl },
      }),
    );
    assert.equal(code, 0, stderr);
    return stdout;
  }

  it('creates a user, two employers and an app whose credentials work at the token endpoint', async () => {
    const printed = JSON.parse(await demo('--json'));
    const user = await database().db('users').where({ id: printed.user.id }).first();
    assert.equal(user.email, printed.user.email);
    assert.ok(await verifyPassword(printed.user.password, user.password_hash));
    assert.equal(printed.employers.length, 2);
    const memberships = await database().db('memberships').where({ user_id: printed.user.id });
    assert.deepEqual(
      memberships.map((row: { employer_id: string }) => row.employer_id).sort(),
      printed.employers.map((employer: { id: string }) => employer.id).sort(),
    );
    assert.deepEqual(printed.app.redirect_uris, ['http://localhost:8080/callback']);
    // Three postings of the first employer (Job Sync), citing the employer patched for them.
    assert.equal(printed.postings.length, 3);
    const postings = await database()
      .db('job_postings')
      .whereIn('sourced_posting_id', printed.postings);
    assert.deepEqual(
      postings.map((row: { employer_id: string }) => row.employer_id),
      Array(3).fill(printed.employers[0].id),
    );

    const token = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form: {
        grant_type: 'client_credentials',
        scope: 'employer_access',
        employer: printed.employers[0].id,
      },
      headers: basic(printed.app.client_id, printed.app.client_secret),
    });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    const info = await callApi(service.url, 'GET', '/v2/api/appinfo', {
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    assert.equal(info.status, 200);
    assert.deepEqual(
      [...info.body.employers].sort((a, b) => a.name.localeCompare(b.name)),
      [...printed.employers].sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('prints curl commands that run as printed', async () => {
    const text = await demo();
    assert.match(text, /email: +demo-[0-9a-f]{8}@example\.com/);
    assert.match(text, /password: +\S{16}/);
    assert.ok(text.includes(`${service.config.authUrl}/console`));
    const tokenCommand = /^ {2}(curl -u .*\/oauth\/v2\/tokens .*)$/m.exec(text)?.[1];
    const appinfoCommand = /^ {2}(curl -H .*\/v2\/api\/appinfo)$/m.exec(text)?.[1];
    assert.ok(tokenCommand && appinfoCommand, text);
    assert.ok(tokenCommand.startsWith(`curl -u '`));
    assert.ok(tokenCommand.includes(`${service.config.apiUrl}/oauth/v2/tokens`));

    const issued = await execFileAsync('sh', ['-c', `${tokenCommand} --silent --fail`]);
    const { access_token: accessToken, scope } = JSON.parse(issued.stdout);
    assert.equal(scope, 'employer_access');
    const listed = await execFileAsync('sh', ['-c', `${appinfoCommand} --silent --fail`], {
      env: { ...process.env, ACCESS_TOKEN: accessToken },
    });
    assert.equal(JSON.parse(listed.stdout).employers.length, 2);
  });

  it('makes a new demo user on every run, never colliding with an earlier one', async () => {
    const first = JSON.parse(await demo('--json'));
    const second = JSON.parse(await demo('--json'));
    assert.notEqual(first.user.email, second.user.email);
    assert.notEqual(first.app.client_id, second.app.client_id);
  });
});
