import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import { sha256Hex } from '../../src/security/random.js';
import { verifyPassword } from '../../src/security/passwords.js';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../support/databases.js';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(database: () => TestDatabase) {
  return async (...argv: string[]): Promise<CliRun> => {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (t: string) => void (stdout += t),
      stderr: (t: string) => void (stderr += t),
    };
    const code = await runProgram(argv, io, async () => testCliServices(database().db));
    return { code, stdout, stderr };
  };
}

async function rowCounts(database: () => TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['users', 'employers', 'memberships', 'apps', 'app_redirect_uris']) {
    const [row] = await database().db(table).count({ count: '*' });
    counts[table] = Number(row?.count);
  }
  return counts;
}

describeEachDialect('admin CLI', (database) => {
  const run = cli(database);

  it('creates a user, an employer with that member, and an app with redirect URIs', async () => {
    const user = await run(
      '--json',
      'user',
      'create',
      '--email',
      'Ada@Example.com',
      '--password',
      'correct horse',
      '--name',
      'Ada',
    );
    assert.equal(user.code, 0, user.stderr);
    const { user: created } = JSON.parse(user.stdout);
    assert.equal(created.email, 'Ada@Example.com');
    assert.equal(created.name, 'Ada');
    assert.equal(created.password_hash, undefined, 'never prints the password hash');

    const stored = await database().db('users').where({ id: created.id }).first();
    assert.match(stored.password_hash, /^scrypt\$/);
    assert.ok(await verifyPassword('correct horse', stored.password_hash));
    assert.ok(!(await verifyPassword('wrong horse', stored.password_hash)));

    const employer = await run(
      '--json',
      'employer',
      'create',
      '--name',
      'Acme',
      '--member',
      'ada@example.com',
    );
    assert.equal(employer.code, 0, employer.stderr);
    const employerResult = JSON.parse(employer.stdout);
    assert.equal(employerResult.employer.name, 'Acme');
    assert.deepEqual(
      employerResult.members.map((m: { email: string }) => m.email),
      ['Ada@Example.com'],
    );

    const app = await run(
      '--json',
      'app',
      'create',
      '--owner',
      'ada@example.com',
      '--name',
      'Scheduler',
      '--redirect-uri',
      'https://app.example.com/callback',
      '--redirect-uri',
      'http://localhost:8080/callback',
    );
    assert.equal(app.code, 0, app.stderr);
    const appResult = JSON.parse(app.stdout);
    assert.match(appResult.client_id, /^[0-9a-f]{32}$/);
    assert.ok(appResult.client_secret.length >= 43, 'at least 256 bits of secret');
    assert.deepEqual(appResult.app.redirect_uris, [
      'https://app.example.com/callback',
      'http://localhost:8080/callback',
    ]);
    const storedApp = await database().db('apps').where({ client_id: appResult.client_id }).first();
    assert.equal(
      storedApp.client_secret_hash,
      sha256Hex(appResult.client_secret),
      'stores only the digest',
    );
    assert.ok(!JSON.stringify(storedApp).includes(appResult.client_secret));

    const list = await run('--json', 'app', 'list');
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!list.stdout.includes(appResult.client_secret), 'app list never shows a secret');
    const listed = JSON.parse(list.stdout).apps;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].owner_email, 'Ada@Example.com');
  });

  it('registers an app with the publisher details the consent page shows', async () => {
    const created = await run(
      'app',
      'create',
      '--owner',
      'ada@example.com',
      '--name',
      'Published',
      '--redirect-uri',
      'https://app.example.com/callback',
      '--developer-name',
      'Ada Labs',
      '--homepage-url',
      'https://ada.example/',
      '--privacy-policy-url',
      'https://ada.example/privacy',
      '--logo-url',
      'https://ada.example/logo.png',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /developer_name: +Ada Labs/);
    assert.match(created.stdout, /logo_url: +https:\/\/ada\.example\/logo\.png/);
    const stored = await database().db('apps').where({ name: 'Published' }).first();
    assert.equal(stored.developer_name, 'Ada Labs');
    assert.equal(stored.homepage_url, 'https://ada.example/');
    assert.equal(stored.privacy_policy_url, 'https://ada.example/privacy');
    assert.equal(stored.logo_url, 'https://ada.example/logo.png');
  });

  it('adds a member to an employer', async () => {
    assert.equal(
      (await run('user', 'create', '--email', 'bo@example.com', '--password', 'password-2')).code,
      0,
    );
    const [employer] = await database().db('employers').where({ name: 'Acme' });
    const added = await run(
      '--json',
      'employer',
      'add-member',
      '--employer',
      employer.id,
      '--email',
      'bo@example.com',
    );
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(
      JSON.parse(added.stdout).members.map(
        (m: { email: string; role: string }) => `${m.email}:${m.role}`,
      ),
      ['Ada@Example.com:admin', 'bo@example.com:member'],
    );
    const again = await run(
      'employer',
      'add-member',
      '--employer',
      employer.id,
      '--email',
      'bo@example.com',
    );
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already a member/);
  });

  const refusals: Array<[string, string[], RegExp]> = [
    [
      'a duplicate email (any letter case)',
      ['user', 'create', '--email', 'ADA@example.com', '--password', 'another one'],
      /already exists/,
    ],
    [
      'a malformed email',
      ['user', 'create', '--email', 'not-an-email', '--password', 'long enough'],
      /email must contain exactly one @/,
    ],
    [
      'a short password',
      ['user', 'create', '--email', 'new@example.com', '--password', 'short'],
      /at least 8 characters/,
    ],
    [
      'more than 5 redirect URIs',
      [
        'app',
        'create',
        '--owner',
        'ada@example.com',
        '--name',
        'Six',
        ...[1, 2, 3, 4, 5, 6].flatMap((n) => ['--redirect-uri', `https://app.example.com/cb${n}`]),
      ],
      /at most 5 redirect URIs \(got 6\)/,
    ],
    [
      'a non-absolute redirect URI',
      [
        'app',
        'create',
        '--owner',
        'ada@example.com',
        '--name',
        'Rel',
        '--redirect-uri',
        '/callback',
      ],
      /"\/callback" is not an absolute URL/,
    ],
    [
      'a redirect URI with a fragment',
      [
        'app',
        'create',
        '--owner',
        'ada@example.com',
        '--name',
        'Frag',
        '--redirect-uri',
        'https://a.example.com/cb#x',
      ],
      /fragment/,
    ],
    [
      'plain http to a non-loopback host',
      [
        'app',
        'create',
        '--owner',
        'ada@example.com',
        '--name',
        'Http',
        '--redirect-uri',
        'http://app.example.com/cb',
      ],
      /must use https/,
    ],
    [
      'a publisher URL that is not https',
      [
        'app',
        'create',
        '--owner',
        'ada@example.com',
        '--name',
        'Plain',
        '--redirect-uri',
        'https://app.example.com/cb',
        '--logo-url',
        'http://cdn.example.com/logo.png',
      ],
      /logo URL must start with https:\/\//,
    ],
    [
      'an unknown owner',
      ['app', 'create', '--owner', 'nobody@example.com', '--name', 'Orphan'],
      /no user with email nobody@example.com/,
    ],
    [
      'an employer member who does not exist',
      [
        'employer',
        'create',
        '--name',
        'Ghost Corp',
        '--member',
        'ada@example.com',
        '--member',
        'ghost@example.com',
      ],
      /no user with email ghost@example.com/,
    ],
    ['an empty employer name', ['employer', 'create', '--name', '  '], /name must not be empty/],
    [
      'an unknown employer',
      [
        'employer',
        'add-member',
        '--employer',
        '00000000-0000-0000-0000-000000000000',
        '--email',
        'ada@example.com',
      ],
      /no employer with id/,
    ],
  ];
  for (const [what, argv, message] of refusals) {
    it(`refuses ${what} with exit 1 and writes nothing`, async () => {
      const before = await rowCounts(database);
      const result = await run(...argv);
      assert.equal(result.code, 1, result.stdout);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      assert.deepEqual(await rowCounts(database), before);
    });
  }

  it('answers usage errors with exit 2 and a hint', async () => {
    const missing = await run('app', 'create', '--name', 'No owner');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /required option '--owner <email>' not specified/);
    const unknown = await run('frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  });
});

describe('npm run cli (a real process)', function () {
  this.timeout(60_000);
  it('runs end to end on SQLite with --json and exits non-zero on bad input', async () => {
    const database = await createTestDatabase('sqlite', { migrate: false });
    const exec = promisify(execFile);
    const env = { ...process.env, ...database.env, LOG_LEVEL: 'silent' };
    try {
      const create = ['user', 'create', '--email', 'x@example.com', '--password', 'password-x'];
      const npmCli = (...argv: string[]) =>
        exec('npm', ['run', '-s', 'cli', '--', ...argv], { env });
      // The CLI creates no database: `npm run migrate` (or the server) does.
      await assert.rejects(npmCli(...create), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /npm run migrate/);
        return true;
      });
      await exec('npm', ['run', '-s', 'migrate'], { env });
      const ok = await npmCli('--json', ...create);
      assert.equal(JSON.parse(ok.stdout).user.email, 'x@example.com');
      await assert.rejects(npmCli(...create), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /already exists/);
        return true;
      });
    } finally {
      await database.dispose();
    }
  });
});
