import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { decodeJwt } from 'jose';
import { runProgram } from '../../src/cli/program.js';
import { systemClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/database.js';
import { sha256Hex } from '../../src/security/random.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertEventGraph } from '../support/interview-fixtures.js';
import { silentLogger } from '../support/logger.js';
import { basic, callApi, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET, startTestService } from '../support/service.js';

const exec = promisify(execFile);

type RunningTestService = Awaited<ReturnType<typeof startTestService>>;

/** The tables a token issue writes: a refusal must leave every count as it was. */
const WRITTEN_TABLES = [
  'access_tokens',
  'refresh_tokens',
  'refresh_token_families',
  'consents',
  'audit_events',
];

const TOKEN_RESPONSE_FIELDS = [
  'access_token',
  'token_type',
  'expires_in',
  'scope',
  'id_token',
  'refresh_token',
];

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- token issue ...` as a child process pointed at the test database. */
function tokenIssueProcess(database: () => TestDatabase, service: () => RunningTestService) {
  return async (argv: string[], env: Record<string, string> = {}): Promise<CliRun> => {
    try {
      const { stdout, stderr } = await exec('npm', ['run', '-s', 'cli', '--', ...argv], {
        env: {
          ...process.env,
          ...database().env,
          LOG_LEVEL: 'silent',
          KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
          NODE_ENV: 'development',
          CLI_SANDBOX_TOKENS: '',
          // The issuer and audience the service checks, as a deployment's CLI would have them.
          AUTH_URL: service().config.authUrl,
          API_URL: service().config.apiUrl,
          ...env,
        },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
}

async function rowCounts(database: () => TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of WRITTEN_TABLES) {
    const [row] = await database().db(table).count({ count: '*' });
    counts[table] = Number(row?.count);
  }
  return counts;
}

describeEachDialect('cli token issue', (database) => {
  let service: RunningTestService;
  const tokenIssue = tokenIssueProcess(database, () => service);
  let tenant: OAuthTenant;

  before(async () => {
    service = await startTestService(database());
    tenant = await createOAuthTenant(database().db, systemClock, 'sandbox');
    await insertEventGraph(database().db, {
      employerId: tenant.employer.id,
      appId: tenant.app.id,
      userId: tenant.user.id,
    });
  });
  after(async () => {
    await service?.stop();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
    callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form: { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra },
      headers: basic(tenant.app.client_id, tenant.app.secret),
    });
  const findEvents = (accessToken: string) =>
    postGraphQL(service.url, accessToken, {
      query: '{ findVirtualInterviewEvents(input: {}) { events { id title } } }',
    });

  it('prints an employer token set that works at /graphql, userinfo and the token endpoint', async () => {
    const run = await tokenIssue([
      '--json',
      'token',
      'issue',
      '--app',
      tenant.app.client_id,
      '--user',
      tenant.user.email.toUpperCase(),
      '--employer',
      tenant.employer.id,
    ]);
    assert.equal(run.code, 0, run.stderr);
    // The token response, and beside it (--json) the database and issuer the run used.
    const { cli, ...issued } = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(issued).sort(), [...TOKEN_RESPONSE_FIELDS].sort());
    assert.equal(cli.issuer, service.config.authUrl);
    assert.equal(cli.issuer_source, 'server');
    assert.equal(issued.token_type, 'Bearer');
    assert.equal(issued.expires_in, 3600);
    assert.equal(issued.scope, 'email employer_access offline_access openid');

    const access = decodeJwt(issued.access_token);
    assert.equal(access.sub, `user:${tenant.user.id}`);
    assert.equal(access.azp, tenant.app.client_id);
    assert.equal(access.emp, tenant.employer.id);
    const stored = await database().db('access_tokens').where({ jti: access.jti }).first();
    assert.ok(stored, 'the access token is recorded by its jti');
    assert.ok(stored.refresh_family_id, 'and belongs to its refresh family');

    const id = decodeJwt(issued.id_token);
    assert.equal(id.sub, tenant.user.id);
    assert.equal(id.aud, tenant.app.client_id);
    assert.equal(id.email, tenant.user.email);
    const user = await database().db('users').where({ id: tenant.user.id }).first();
    assert.equal(id.email_verified, Boolean(user.email_verified));
    assert.deepEqual(id.employers, [{ id: tenant.employer.id, name: tenant.employer.name }]);

    const events = await findEvents(issued.access_token);
    assert.equal(events.status, 200, JSON.stringify(events.body));
    assert.equal(events.body.errors, undefined, JSON.stringify(events.body.errors));
    assert.equal(events.body.data.findVirtualInterviewEvents.events.length, 1);

    const info = await callApi(service.url, 'GET', '/v2/api/userinfo', {
      headers: bearer(issued.access_token),
    });
    assert.equal(info.status, 200, JSON.stringify(info.body));
    assert.equal(info.body.sub, tenant.user.id);
    assert.equal(info.body.email, tenant.user.email);

    const refreshed = await refresh(issued.refresh_token, { employer: tenant.employer.id });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.notEqual(refreshed.body.refresh_token, issued.refresh_token, 'rotated');
    assert.equal((await findEvents(refreshed.body.access_token)).status, 200);

    const reused = await refresh(issued.refresh_token);
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'invalid_grant');
    assert.match(reused.body.error_description, /already been used/);
    const afterReuse = await refresh(refreshed.body.refresh_token);
    assert.equal(afterReuse.body.error, 'invalid_grant', 'the reuse revoked the whole family');
    const revoked = await callApi(service.url, 'GET', '/v2/api/userinfo', {
      headers: bearer(refreshed.body.access_token),
    });
    assert.equal(revoked.status, 401, 'and the access tokens issued from it');
  });

  it('records the consent as the consent page does, and audits it as a sandbox issue', async () => {
    const consent = await database()
      .db('consents')
      .where({ user_id: tenant.user.id, app_id: tenant.app.id })
      .first();
    assert.equal(consent.scope_set, 'email employer_access offline_access openid');

    const audited = await database()
      .db('audit_events')
      .where({ app_id: tenant.app.id })
      .whereIn('type', ['consent.granted', 'token.issued'])
      .orderBy('id');
    type AuditRow = { type: string; employer_id: string | null; actor_user_id: string };
    const sandbox = audited
      .map((row: AuditRow & { details: string }) => ({ ...row, d: JSON.parse(row.details) }))
      .filter((row: { d: { sandbox?: boolean } }) => row.d.sandbox === true);
    assert.deepEqual(
      sandbox.map((row: { type: string }) => row.type),
      ['consent.granted', 'token.issued'],
    );
    assert.equal(sandbox[0]!.d.via, 'cli token issue');
    assert.equal(sandbox[1]!.employer_id, tenant.employer.id);
    assert.equal(sandbox[1]!.actor_user_id, tenant.user.id);
    const details = audited.map((row: { details: string }) => row.details).join('\n');
    assert.doesNotMatch(details, /eyJ/, 'no token in the audit details');
  });

  it('prints the same JSON without --json; the default scope follows the grants the app allows', async () => {
    const run = await tokenIssue([
      'token',
      'issue',
      '--app',
      tenant.app.client_id,
      '--user',
      tenant.user.email,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const issued = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(issued).sort(), [...TOKEN_RESPONSE_FIELDS].sort());
    assert.equal(decodeJwt(issued.access_token).emp, undefined, 'no employer asked for');

    await database()
      .db('apps')
      .where({ id: tenant.publicApp.id })
      .update({ grant_types: 'authorization_code' });
    const noRefresh = await tokenIssue([
      '--json',
      'token',
      'issue',
      '--app',
      tenant.publicApp.client_id,
      '--user',
      tenant.user.email,
      '--scope',
      'openid',
      'email',
    ]);
    assert.equal(noRefresh.code, 0, noRefresh.stderr);
    const withoutRefresh = JSON.parse(noRefresh.stdout);
    assert.equal(withoutRefresh.scope, 'email openid');
    assert.equal(withoutRefresh.refresh_token, undefined, 'no offline_access, no refresh token');
    const info = await callApi(service.url, 'GET', '/v2/api/userinfo', {
      headers: bearer(withoutRefresh.access_token),
    });
    assert.equal(info.status, 200);
  });

  const refusals: Array<[string, () => string[], RegExp, Record<string, string>?]> = [
    [
      'an unknown app',
      () => ['--app', '0'.repeat(32), '--user', tenant.user.email],
      /no app has client_id 0{32}/,
    ],
    [
      'an unknown user',
      () => ['--app', tenant.app.client_id, '--user', 'nobody@example.com'],
      /no user signs in with nobody@example.com/,
    ],
    [
      'an unknown employer',
      () => [
        '--app',
        tenant.app.client_id,
        '--user',
        tenant.user.email,
        '--employer',
        '00000000-0000-4000-8000-000000000000',
      ],
      /no employer has id 00000000-0000-4000-8000-000000000000/,
    ],
    [
      'an employer the user does not belong to',
      () => [
        '--app',
        tenant.app.client_id,
        '--user',
        tenant.user.email,
        '--employer',
        tenant.foreignEmployer.id,
      ],
      /is not a member of employer/,
    ],
    [
      'an unsupported scope',
      () => ['--app', tenant.app.client_id, '--user', tenant.user.email, '--scope', 'admin'],
      /scope "admin" is not supported/,
    ],
    [
      'offline_access for an app without the refresh_token grant',
      () => [
        '--app',
        tenant.publicApp.client_id,
        '--user',
        tenant.user.email,
        '--scope',
        'openid offline_access',
      ],
      /does not allow the refresh_token grant/,
    ],
    [
      'production without CLI_SANDBOX_TOKENS=enabled',
      () => ['--app', tenant.app.client_id, '--user', tenant.user.email],
      /refused when NODE_ENV=production; set CLI_SANDBOX_TOKENS=enabled/,
      { NODE_ENV: 'production' },
    ],
  ];
  for (const [what, argv, message, env] of refusals) {
    it(`refuses ${what} with exit 1, one error line and nothing written`, async () => {
      const before = await rowCounts(database);
      const run = await tokenIssue(['token', 'issue', ...argv()], env);
      assert.equal(run.code, 1, run.stdout);
      assert.equal(run.stdout, '');
      // Beside the line that says which database and issuer the run uses.
      const [where, ...errors] = run.stderr.trim().split('\n');
      assert.match(where!, /^cli: /, run.stderr);
      assert.equal(errors.length, 1, run.stderr);
      assert.match(run.stderr, message);
      assert.deepEqual(await rowCounts(database), before);
    });
  }

  it('issues in production when CLI_SANDBOX_TOKENS=enabled', async () => {
    const run = await tokenIssue(
      ['--json', 'token', 'issue', '--app', tenant.app.client_id, '--user', tenant.user.email],
      { NODE_ENV: 'production', CLI_SANDBOX_TOKENS: 'enabled' },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.ok(JSON.parse(run.stdout).access_token);
  });

  it('issues concurrently (processes and in-process calls); every token survives reopening', async () => {
    const argv = [
      '--json',
      'token',
      'issue',
      '--app',
      tenant.app.client_id,
      '--user',
      tenant.user.email,
      '--employer',
      tenant.employer.id,
    ];
    const services = testCliServices(database().db, {
      env: { AUTH_URL: service.config.authUrl, API_URL: service.config.apiUrl },
    });
    const inProcess = async () => {
      let stdout = '';
      let stderr = '';
      const io = {
        stdout: (text: string) => void (stdout += text),
        stderr: (text: string) => void (stderr += text),
      };
      const code = await runProgram(argv, io, async () => services);
      return { code, stdout, stderr };
    };
    const runs = await Promise.all([
      ...Array.from({ length: 3 }, () => tokenIssue(argv)),
      ...Array.from({ length: 12 }, inProcess),
    ]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const issued = runs.map((run) => JSON.parse(run.stdout));
    assert.equal(new Set(issued.map((tokens) => tokens.access_token)).size, runs.length);

    // The next write still works.
    const next = await inProcess();
    assert.equal(next.code, 0, next.stderr);
    issued.push(JSON.parse(next.stdout));

    await service.stop();
    const reopened = openDatabase(database().config, silentLogger);
    try {
      for (const tokens of issued) {
        const jti = decodeJwt(tokens.access_token).jti;
        const row = await reopened('access_tokens').where({ jti }).first();
        assert.ok(row && row.revoked_at === null, `access token ${jti} is stored and live`);
        const refreshRow = await reopened('refresh_tokens')
          .where({ token_hash: sha256Hex(tokens.refresh_token) })
          .first();
        assert.ok(refreshRow && refreshRow.consumed_at === null, 'refresh token stored, unused');
      }
    } finally {
      await reopened.destroy();
    }
    // The same address, so the tokens' issuer is this service's again.
    const { authUrl, port } = service.config;
    service = await startTestService(database(), {
      env: { PORT: String(port), AUTH_URL: authUrl },
    });
    for (const tokens of issued) {
      const info = await callApi(service.url, 'GET', '/v2/api/userinfo', {
        headers: bearer(tokens.access_token),
      });
      assert.equal(info.status, 200);
      assert.equal((await findEvents(tokens.access_token)).status, 200);
    }
    const refreshed = await refresh(issued[0].refresh_token);
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
  });
});
