import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('starts on SQLite with local URLs when nothing is set', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.authUrl, 'http://localhost:3000');
    assert.equal(config.apiUrl, 'http://localhost:3000');
    assert.equal(config.publicUrl, 'http://localhost:3000');
    assert.deepEqual(config.database, {
      client: 'sqlite',
      filename: './data/service.sqlite',
      synchronous: 'NORMAL',
      readConnections: 1,
      checkpointPages: 1000,
      retries: 3,
    });
    assert.equal(config.logLevel, 'info');
    assert.equal(config.archiveAfterDays, 30);
    assert.equal(config.signingKeyActivationDelayMs, 120_000);
  });

  it('listens on loopback unless in production or HOST says otherwise', () => {
    assert.equal(loadConfig({}).host, '127.0.0.1');
    assert.equal(loadConfig({ NODE_ENV: 'test' }).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '' }).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
    const production = { NODE_ENV: 'production', KEY_ENCRYPTION_SECRET: 'k'.repeat(32) };
    assert.equal(loadConfig(production).host, '0.0.0.0');
    assert.equal(loadConfig({ ...production, HOST: '10.0.0.5' }).host, '10.0.0.5');
  });

  it('takes CLI_SANDBOX_TOKENS=enabled or disabled (the default), and refuses other values', () => {
    assert.equal(loadConfig({}).cliSandboxTokens, 'disabled');
    assert.equal(loadConfig({ CLI_SANDBOX_TOKENS: 'enabled' }).cliSandboxTokens, 'enabled');
    assert.throws(
      () => loadConfig({ CLI_SANDBOX_TOKENS: 'yes' }),
      (error: Error) => error instanceof ConfigError && /CLI_SANDBOX_TOKENS/.test(error.message),
    );
  });

  it('reads the signing key activation delay in seconds, zero allowed', () => {
    const delay = (value: string) =>
      loadConfig({ SIGNING_KEY_ACTIVATION_DELAY_SECONDS: value }).signingKeyActivationDelayMs;
    assert.equal(delay('300'), 300_000);
    assert.equal(delay('0'), 0);
  });

  it('uses PostgreSQL when DATABASE_URL is set, and strips trailing slashes from URLs', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app@db.internal/hiring',
      DATABASE_SCHEMA: 'tenant_a',
      AUTH_URL: 'https://auth.example.com/',
      API_URL: 'https://api.example.com',
      PORT: '8080',
    });
    assert.deepEqual(config.database, {
      client: 'postgres',
      connectionString: 'postgres://app@db.internal/hiring',
      poolMax: 10,
      searchPath: 'tenant_a',
      retries: 3,
    });
    assert.equal(config.authUrl, 'https://auth.example.com');
    assert.equal(config.apiUrl, 'https://api.example.com');
    assert.equal(config.publicUrl, 'https://auth.example.com');
  });

  it('treats empty variables as unset', () => {
    assert.equal(loadConfig({ DATABASE_URL: '', PORT: '' }).database.client, 'sqlite');
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT: .*\(got "eighty"\)/],
    [{ PORT: '70000' }, /PORT: /],
    [{ AUTH_URL: 'auth.example.com' }, /AUTH_URL: must be an absolute http\(s\) URL/],
    [{ PUBLIC_URL: 'ftp://files.example.com' }, /PUBLIC_URL: must be an absolute http\(s\) URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must start with postgres:\/\//],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL: /],
    [{ SIGNING_KEY_ACTIVATION_DELAY_SECONDS: '-1' }, /SIGNING_KEY_ACTIVATION_DELAY_SECONDS: /],
    [{ SIGNING_KEY_ACTIVATION_DELAY_SECONDS: '120000' }, /SIGNING_KEY_ACTIVATION_DELAY_SECONDS: /],
    [{ SIGNING_KEY_ACTIVATION_DELAY_SECONDS: '2m' }, /SIGNING_KEY_ACTIVATION_DELAY_SECONDS: /],
    [
      { KEY_ENCRYPTION_SECRET: 'short' },
      /KEY_ENCRYPTION_SECRET: must be at least 32 characters \(got 5 characters\)/,
    ],
    [{ NODE_ENV: 'production' }, /KEY_ENCRYPTION_SECRET: required when NODE_ENV=production/],
  ];
  for (const [env, message] of bad) {
    it(`fails fast naming the variable: ${Object.keys(env).join(', ')}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it('takes SQLITE_SYNCHRONOUS=FULL for power-loss durability, and refuses other levels', () => {
    assert.deepEqual(loadConfig({ SQLITE_SYNCHRONOUS: 'FULL' }).database, {
      client: 'sqlite',
      filename: './data/service.sqlite',
      synchronous: 'FULL',
      readConnections: 1,
      checkpointPages: 1000,
      retries: 3,
    });
    assert.throws(() => loadConfig({ SQLITE_SYNCHRONOUS: 'OFF' }), /SQLITE_SYNCHRONOUS/);
  });

  it('names every bad variable at once and never echoes secrets', () => {
    assert.throws(
      () =>
        loadConfig({
          PORT: 'x',
          DATABASE_URL: 'mysql://user:hunter2@db/x',
          KEY_ENCRYPTION_SECRET: 'hunter2',
        }),
      (error: Error) => {
        assert.match(error.message, /PORT/);
        assert.match(error.message, /DATABASE_URL/);
        assert.match(error.message, /KEY_ENCRYPTION_SECRET/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  });
});

describe('configuration of throughput and memory', () => {
  it('takes DATABASE_RETRIES (0 turns retries off) and refuses negative or large counts', () => {
    assert.equal(loadConfig({ DATABASE_RETRIES: '0' }).database.retries, 0);
    assert.equal(
      loadConfig({ DATABASE_RETRIES: '5', DATABASE_URL: 'postgres://db/x' }).database.retries,
      5,
    );
    assert.throws(() => loadConfig({ DATABASE_RETRIES: '-1' }), ConfigError);
    assert.throws(() => loadConfig({ DATABASE_RETRIES: '11' }), ConfigError);
  });

  it('takes SQLITE_READ_CONNECTIONS (0 turns readers off) and refuses negative or huge counts', () => {
    const readers = (value: string) => {
      const { database } = loadConfig({ SQLITE_READ_CONNECTIONS: value });
      return database.client === 'sqlite' ? database.readConnections : undefined;
    };
    assert.equal(readers('0'), 0);
    assert.equal(readers('8'), 8);
    assert.throws(() => loadConfig({ SQLITE_READ_CONNECTIONS: '-1' }), ConfigError);
    assert.throws(() => loadConfig({ SQLITE_READ_CONNECTIONS: '65' }), ConfigError);
  });

  it('takes SQLITE_CHECKPOINT_PAGES (0 leaves checkpoints to SQLite on the writer)', () => {
    const pages = (value: string) => {
      const { database } = loadConfig({ SQLITE_CHECKPOINT_PAGES: value });
      return database.client === 'sqlite' ? database.checkpointPages : undefined;
    };
    assert.equal(pages('0'), 0);
    assert.equal(pages('4000'), 4000);
    assert.throws(() => loadConfig({ SQLITE_CHECKPOINT_PAGES: '-1' }), ConfigError);
    assert.throws(() => loadConfig({ SQLITE_CHECKPOINT_PAGES: '2000000' }), ConfigError);
  });

  it('bounds workers’ heaps at 160 MiB unless WORKER_MAX_OLD_SPACE_MB says otherwise', () => {
    assert.equal(loadConfig({}).workerMaxOldSpaceMb, 160);
    assert.equal(loadConfig({ WORKER_MAX_OLD_SPACE_MB: '512' }).workerMaxOldSpaceMb, 512);
    assert.throws(() => loadConfig({ WORKER_MAX_OLD_SPACE_MB: '10' }), ConfigError);
  });

  it('lets five people send video in a room (an interviewee, four interviewers) unless told', () => {
    assert.equal(loadConfig({}).room.maxVideoParticipants, 5);
    assert.equal(loadConfig({ ROOM_MAX_VIDEO_PARTICIPANTS: '2' }).room.maxVideoParticipants, 2);
    assert.throws(() => loadConfig({ ROOM_MAX_VIDEO_PARTICIPANTS: '0' }), ConfigError);
    assert.throws(() => loadConfig({ ROOM_MAX_VIDEO_PARTICIPANTS: '17' }), ConfigError);
  });
});
