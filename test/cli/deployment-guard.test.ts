import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { callApi, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess } from '../support/service-process.js';
import { runCli } from '../support/cli-process.js';

/** The tables a token issue writes: a refusal leaves every count as it was. */
const WRITTEN_TABLES = ['access_tokens', 'refresh_tokens', 'consents', 'audit_events'];

async function rowCounts(database: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of WRITTEN_TABLES) {
    const [row] = await database.db(table).count({ count: '*' });
    counts[table] = Number(row?.count);
  }
  return counts;
}

/**
 * Issue 18, item 6 and 7: whether `cli token issue` may mint tokens, and for which issuer, is the
 * deployment's to say (what its server recorded in the database when it started), not the
 * CLI's shell's. Against the production default (the built service, NODE_ENV=production, two
 * workers) on each database.
 */
describeEachDialect(
  'cli token issue against a production deployment (2-worker cluster)',
  (database) => {
    let tenant: OAuthTenant;
    const issueArgs = () => [
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

    before(async () => {
      tenant = await createOAuthTenant(database().db, systemClock, 'guard');
    });

    it('refuses when the server runs in production, whatever the CLI shell says', async function () {
      this.timeout(180_000);
      const service = await startServiceProcess(database(), {}, 'cluster');
      try {
        const before = await rowCounts(database());
        // The shell's own claims (a development shell that enables sandbox tokens) do not count.
        const shells: Array<Record<string, string>> = [
          {},
          { NODE_ENV: 'development', CLI_SANDBOX_TOKENS: 'enabled' },
        ];
        for (const shell of shells) {
          const run = await runCli(database(), issueArgs(), shell);
          assert.equal(run.code, 1, `${JSON.stringify(shell)}: printed ${run.stdout.length} chars`);
          assert.equal(run.stdout, '', 'no token printed');
          assert.match(
            run.stderr,
            /^error: .*the server of this database runs with NODE_ENV=production/m,
          );
          assert.match(run.stderr, /CLI_SANDBOX_TOKENS=enabled/);
        }
        assert.deepEqual(await rowCounts(database()), before, 'nothing written');
        assert.deepEqual(service.crashes(), []);
      } finally {
        await service.stop();
      }
    });

    it("issues for the server's recorded issuer when the server allows it, without PORT or AUTH_URL", async function () {
      this.timeout(180_000);
      const service = await startServiceProcess(
        database(),
        { CLI_SANDBOX_TOKENS: 'enabled' },
        'cluster',
      );
      try {
        const run = await runCli(database(), issueArgs());
        assert.equal(run.code, 0, run.stderr);
        const issued = JSON.parse(run.stdout);
        const info = await callApi(service.url, 'GET', '/v2/api/userinfo', {
          headers: { authorization: `Bearer ${issued.access_token}` },
        });
        assert.equal(info.status, 200, JSON.stringify(info.body));
        assert.equal(info.body.email, tenant.user.email);
        assert.equal(decodeJwt(issued.access_token).iss, service.url);
        assert.equal(decodeJwt(issued.access_token).aud, service.url);
        assert.match(run.stderr, /issuer http:\/\/127\.0\.0\.1:\d+ \(recorded by the server/);
        assert.deepEqual(service.crashes(), []);
      } finally {
        await service.stop();
      }
    });
  },
);
