import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import knex from 'knex';
import { describeEachDialect, POSTGRES_URL } from '../support/databases.js';
import {
  ensureBuilt,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';
import { runCli } from '../support/cli-process.js';
import { testAccounts } from '../support/compose.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';

const exec = promisify(execFile);
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const WRONG_SECRET = 'not-the-secret-of-this-database-0123456789';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command's outcome, whether it succeeded or not. */
async function run(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: REPOSITORY, env, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Lines of text that are not blank. */
function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/**
 * Issue 18, item 7: the operator's CLI says which database and issuer it uses, refuses to create
 * a database (only `npm run migrate` and the server do), names a wrong KEY_ENCRYPTION_SECRET, and
 * a database it cannot reach gets one line, from the CLI, the server and `npm run migrate`.
 * The server is the production default (built, NODE_ENV=production, two workers).
 */
describeEachDialect(
  'operator messages of the CLI and the server (2-worker cluster)',
  (database) => {
    let service: ServiceProcess;
    const sqlite = () => database().dialect === 'sqlite';
    const base = (): Record<string, string> => ({
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...Object.fromEntries(Object.entries(database().env).filter(([, value]) => value !== '')),
      KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
      LOG_LEVEL: 'silent',
    });

    before(async function () {
      this.timeout(180_000);
      service = await startServiceProcess(database(), {}, 'cluster');
    });
    after(async () => {
      await service?.stop();
    });

    it('names its database and issuer on stderr and, with --json, as fields beside the result', async function () {
      this.timeout(120_000);
      const json = await runCli(database(), ['--json', 'app', 'list']);
      assert.equal(json.code, 0, json.stderr);
      const printed = JSON.parse(json.stdout);
      assert.deepEqual(printed.apps, []);
      assert.equal(printed.cli.issuer, service.url);
      assert.equal(printed.cli.issuer_source, 'server');
      const where = sqlite()
        ? { engine: 'sqlite', path: database().env.SQLITE_PATH }
        : {
            engine: 'postgres',
            host: '127.0.0.1',
            port: '5432',
            database: 'test',
            schema: database().env.DATABASE_SCHEMA,
          };
      assert.deepEqual(printed.cli.database, where);

      const text = await runCli(database(), ['app', 'list']);
      assert.equal(text.code, 0, text.stderr);
      assert.equal(text.stdout, 'No apps registered.\n');
      const described = sqlite()
        ? `SQLite database ${database().env.SQLITE_PATH}`
        : `PostgreSQL database test at 127.0.0.1:5432, schema ${database().env.DATABASE_SCHEMA}`;
      assert.deepEqual(lines(text.stderr), [
        `cli: ${described}; issuer ${service.url} (recorded by the server at its start)`,
      ]);
    });

    it('refuses a database that was never created, and creates none', async function () {
      this.timeout(120_000);
      const directory = mkdtempSync(join(tmpdir(), 'hpa-mistyped-'));
      const schema = `never_migrated_${randomBytes(4).toString('hex')}`;
      const admin = knex({ client: 'pg', connection: POSTGRES_URL });
      try {
        const mistyped = join(directory, 'servcie.sqlite');
        if (!sqlite()) await admin.raw('create schema ??', [schema]);
        const where: Record<string, string> = sqlite()
          ? { SQLITE_PATH: mistyped }
          : { DATABASE_SCHEMA: schema };
        const refused = await runCli(
          database(),
          ['user', 'create', '--email', 'x@example.com', '--password', 'password-x'],
          where,
        );
        assert.notEqual(refused.code, 0, refused.stdout);
        assert.match(refused.stderr, /npm run migrate/);
        if (sqlite()) {
          assert.ok(refused.stderr.includes(mistyped), refused.stderr);
          assert.match(refused.stderr, /SQLITE_PATH/);
          assert.ok(!existsSync(mistyped), 'no database file was created');
        } else {
          assert.ok(refused.stderr.includes(schema), refused.stderr);
          assert.match(refused.stderr, /DATABASE_SCHEMA/);
          const tables = await admin('information_schema.tables').where({ table_schema: schema });
          assert.deepEqual(tables, [], 'no table was created');
        }
        assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
      } finally {
        if (!sqlite()) await admin.raw('drop schema if exists ?? cascade', [schema]);
        await admin.destroy();
        rmSync(directory, { recursive: true, force: true });
      }
    });

    it('names a wrong KEY_ENCRYPTION_SECRET: the CLI writes nothing, the server does not start', async function () {
      this.timeout(180_000);
      const owner = `owner-${randomBytes(4).toString('hex')}@example.com`;
      await testAccounts(database().db).accounts.createUser({
        email: owner,
        password: 'password-x',
      });
      const [before] = await database().db('apps').count({ count: '*' });
      const created = await runCli(
        database(),
        ['app', 'create', '--owner', owner, '--name', 'Sealed wrongly'],
        { KEY_ENCRYPTION_SECRET: WRONG_SECRET },
      );
      assert.equal(created.code, 1, created.stdout);
      assert.match(lines(created.stderr).at(-1)!, /^error: KEY_ENCRYPTION_SECRET /);
      assert.doesNotMatch(created.stderr, /Unsupported state/);
      const [after] = await database().db('apps').count({ count: '*' });
      assert.deepEqual(after, before);

      let started: ServiceProcess | undefined;
      try {
        started = await startServiceProcess(
          database(),
          { KEY_ENCRYPTION_SECRET: WRONG_SECRET },
          'cluster',
        );
      } catch (error) {
        const message = (error as Error).message;
        assert.match(message, /failed to start: KEY_ENCRYPTION_SECRET /);
        assert.doesNotMatch(message, /Unsupported state/);
        return;
      } finally {
        await started?.stop();
      }
      assert.fail('the server started with a KEY_ENCRYPTION_SECRET that does not open its keys');
    });

    it('says in one line that the database cannot be reached: CLI, server and migrate', async function () {
      this.timeout(180_000);
      const directory = mkdtempSync(join(tmpdir(), 'hpa-unreachable-'));
      try {
        // A directory where the file should be; a port where no PostgreSQL listens.
        const unreachable: Record<string, string> = sqlite()
          ? { SQLITE_PATH: directory }
          : { DATABASE_URL: 'postgres://postgres:secret-password@127.0.0.1:9/test' };
        const names = sqlite() ? directory : '127.0.0.1:9';
        const setting = sqlite() ? /SQLITE_PATH/ : /DATABASE_URL/;
        ensureBuilt();
        const env = { ...base(), ...unreachable };
        const outcomes = {
          cli: await run('npm', ['run', '-s', 'cli', '--', 'app', 'list'], env),
          migrate: await run('npm', ['run', '-s', 'migrate'], env),
          server: await run(process.execPath, ['dist/src/main.js'], {
            ...env,
            NODE_ENV: 'production',
            WORKERS: '2',
            PORT: '0',
            LOG_LEVEL: 'error',
          }),
        };
        for (const [who, outcome] of Object.entries(outcomes)) {
          assert.notEqual(outcome.code, 0, who);
          const said = lines(outcome.stderr);
          assert.equal(said.length, 1, `${who}:\n${outcome.stderr}`);
          assert.ok(said[0]!.includes(names), `${who}: ${said[0]}`);
          assert.match(said[0]!, setting, who);
          assert.doesNotMatch(outcome.stdout + outcome.stderr, /^\s+at /m, `${who}: a stack trace`);
          assert.doesNotMatch(
            outcome.stdout + outcome.stderr,
            /secret-password/,
            `${who}: a password`,
          );
        }
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  },
);
