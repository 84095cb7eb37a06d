import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { cliDeployment, sandboxRefusal } from '../../src/deployment/cli-deployment.js';
import type { RecordedDeployment } from '../../src/deployment/deployment-settings.js';
import { runCli } from '../support/cli-process.js';
import { describeEachDialect } from '../support/databases.js';

const SECRET = { KEY_ENCRYPTION_SECRET: 'k'.repeat(32) };
const shell = (env: Record<string, string> = {}) => loadConfig({ ...SECRET, ...env });
const server = (changes: Partial<RecordedDeployment> = {}): RecordedDeployment => ({
  environment: 'production',
  issuer: 'https://auth.example.com',
  audience: 'https://api.example.com',
  sandboxTokens: false,
  recordedAt: Date.UTC(2030, 0, 1),
  ...changes,
});

describe('how the CLI acts on a deployment (src/deployment/cli-deployment.ts)', () => {
  it("mints for the server's recorded issuer and audience, naming a shell's own that is not used", () => {
    const deployment = cliDeployment(shell({ PORT: '4000' }), server({ sandboxTokens: true }));
    assert.equal(deployment.issuer, 'https://auth.example.com');
    assert.equal(deployment.audience, 'https://api.example.com');
    assert.equal(deployment.issuerSource, 'server');
    assert.equal(deployment.ignoredIssuer, 'http://localhost:4000');
    assert.equal(deployment.sandboxRefusal, null);
  });

  it('uses its own configuration only while no server has recorded one', () => {
    const deployment = cliDeployment(shell({ AUTH_URL: 'https://cli.example.com' }), undefined);
    assert.equal(deployment.issuer, 'https://cli.example.com');
    assert.equal(deployment.audience, 'https://cli.example.com');
    assert.equal(deployment.issuerSource, 'configuration');
    assert.equal(deployment.sandboxRefusal, null);
  });

  it('refuses sandbox tokens on a production server unless the server enabled them', () => {
    const shells: Array<Record<string, string>> = [
      {},
      { CLI_SANDBOX_TOKENS: 'enabled' },
      { NODE_ENV: 'development' },
    ];
    for (const env of shells) {
      assert.match(
        sandboxRefusal(shell(env), server()) ?? '',
        /the server of this database runs with NODE_ENV=production/,
        JSON.stringify(env),
      );
    }
    assert.equal(sandboxRefusal(shell(), server({ sandboxTokens: true })), null);
    assert.equal(
      sandboxRefusal(shell(), server({ environment: 'development', sandboxTokens: true })),
      null,
    );
  });

  it('also refuses when its own shell says production without CLI_SANDBOX_TOKENS=enabled', () => {
    const production = shell({ NODE_ENV: 'production' });
    assert.match(
      sandboxRefusal(production, server({ sandboxTokens: true })) ?? '',
      /refused when NODE_ENV=production/,
    );
    assert.match(sandboxRefusal(production, undefined) ?? '', /refused when NODE_ENV=production/);
    const enabled = shell({ NODE_ENV: 'production', CLI_SANDBOX_TOKENS: 'enabled' });
    assert.equal(sandboxRefusal(enabled, undefined), null);
  });
});

describeEachDialect('npm run cli before any server has started on the database', (database) => {
  it('uses its own AUTH_URL and says that no server has recorded one', async function () {
    this.timeout(60_000);
    const run = await runCli(database(), ['--json', 'app', 'list'], {
      AUTH_URL: 'https://cli.example.com',
    });
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout);
    assert.equal(printed.cli.issuer, 'https://cli.example.com');
    assert.equal(printed.cli.issuer_source, 'configuration');
    assert.match(
      run.stderr,
      /issuer https:\/\/cli\.example\.com \(this shell's AUTH_URL: no server/,
    );
  });
});
