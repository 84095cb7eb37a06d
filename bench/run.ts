/**
 * `npm run bench`: throughput of the hot paths on one process and the embedded SQLite
 * database (or PostgreSQL with BENCH_DATABASE_URL), measured with autocannon from the same
 * machine. Rate limits are raised so that they do not cap the figures; nothing else changes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import knex, { type Knex } from 'knex';
import { composeAccounts } from '../src/accounts/compose.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { composeGrants } from '../src/oauth/compose.js';
import { createLogger } from '../src/logging.js';
import { startService } from '../src/server.js';
import { createSharedDependencies } from '../src/shared-dependencies.js';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'hpa-bench-'));
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? '';
  // On PostgreSQL the run gets a schema of its own, dropped afterwards.
  const schema = postgresUrl ? `bench_${randomBytes(4).toString('hex')}` : '';
  if (schema) await withAdmin(postgresUrl, (admin) => admin.raw('create schema ??', [schema]));
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const config = loadConfig({
    PORT: port,
    HOST: '127.0.0.1',
    AUTH_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    SQLITE_PATH: join(directory, 'bench.sqlite'),
    DATABASE_URL: postgresUrl,
    DATABASE_SCHEMA: schema,
    KEY_ENCRYPTION_SECRET: 'bench-key-encryption-secret-0123456789abcdef',
    RATE_LIMIT_TOKEN_MAX: '100000000',
    SWEEP_INTERVAL_MS: '0',
  });
  const logger = createLogger('silent');
  const service = await startService({ config, logger });
  try {
    // The bench's own user and app, composed as the server and the CLI compose them.
    const { accounts, apps } = composeAccounts(
      createSharedDependencies({
        db: service.db,
        clock: systemClock,
        logger,
        config,
        keyEncryptionSecret: config.keyEncryptionSecret!,
      }),
      { grantTypes: composeGrants().names },
    );
    await accounts.createUser({ email: 'bench@example.com', password: 'bench-password' });
    const { employer } = await accounts.createEmployer({
      name: 'Bench',
      memberEmails: ['bench@example.com'],
    });
    const { app, clientSecret } = await apps.createApp({
      ownerEmail: 'bench@example.com',
      name: 'Bench',
    });
    const basic = `Basic ${Buffer.from(`${app.client_id}:${clientSecret}`).toString('base64')}`;
    const tokenBody = `grant_type=client_credentials&scope=employer_access&employer=${employer.id}`;
    const issued = await fetch(`${service.url}/oauth/v2/tokens`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenBody,
    });
    const { access_token: accessToken } = (await issued.json()) as { access_token: string };

    const scenarios = [
      { name: 'GET /healthz', path: '/healthz', method: 'GET' as const },
      {
        name: 'POST /oauth/v2/tokens (client_credentials + employer)',
        path: '/oauth/v2/tokens',
        method: 'POST' as const,
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: tokenBody,
      },
      {
        name: 'POST /graphql findVirtualInterviewEvents (first: 20)',
        path: '/graphql',
        method: 'POST' as const,
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query:
            '{ findVirtualInterviewEvents(input: {}, first: 20) { totalCount events { id title status } } }',
        }),
      },
    ];
    console.log(
      `${config.database.client}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s each`,
    );
    for (const scenario of scenarios) {
      const result = await autocannon({
        url: `${service.url}${scenario.path}`,
        method: scenario.method,
        headers: scenario.headers,
        body: scenario.body,
        connections: CONNECTIONS,
        duration: DURATION_SECONDS,
      });
      const failures = result.non2xx + result.errors;
      console.log(
        `${scenario.name.padEnd(56)} ${String(Math.round(result.requests.average)).padStart(7)} req/s` +
          `  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms` +
          (failures ? `  (${failures} failed)` : ''),
      );
    }
    console.log(`rss ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MiB after the run`);
  } finally {
    await service.stop();
    rmSync(directory, { recursive: true, force: true });
    if (schema)
      await withAdmin(postgresUrl, (admin) => admin.raw('drop schema ?? cascade', [schema]));
  }
}

async function withAdmin(url: string, work: (admin: Knex) => Promise<unknown>): Promise<void> {
  const admin = knex({ client: 'pg', connection: url });
  try {
    await work(admin);
  } finally {
    await admin.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
