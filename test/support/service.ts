import { createServer, type AddressInfo } from 'node:net';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Principal } from '../../src/graphql/context.js';
import type { BearerAuthenticator } from '../../src/graphql/gateway.js';
import type { Grant } from '../../src/oauth/grants/grant.js';
import { startService, type RunningService } from '../../src/server.js';
import type { TestDatabase } from './databases.js';
import { silentLogger } from './logger.js';

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const TEST_PRINCIPAL: Principal = {
  kind: 'app',
  appId: 'app-1',
  clientId: 'client-1',
  jti: 'jti-1',
  ownerUserId: 'user-1',
  employerId: 'employer-1',
  scopes: ['employer_access'],
};

/** A stand-in verifier: `valid-test-token` is an app's token for employer-1, nothing else is. */
export const acceptTestToken: BearerAuthenticator = async (token) =>
  token === 'valid-test-token' ? TEST_PRINCIPAL : null;

export const TEST_KEY_ENCRYPTION_SECRET = 'test-key-encryption-secret-0123456789abcdef';

/**
 * Starts the real service on an ephemeral port against a test database; `grants` replaces the
 * built-in grant list (a test registers a grant of its own this way).
 */
export async function startTestService(
  database: TestDatabase,
  options: {
    authenticate?: BearerAuthenticator;
    env?: Record<string, string>;
    clock?: Clock;
    grants?: readonly Grant[];
    /** false: every request goes through Express (the fast listener's reference). */
    fastRoutes?: boolean;
  } = {},
): Promise<RunningService & { config: Config }> {
  // A concrete port, so that AUTH_URL (the issuer real OAuth clients check) is the real address.
  const port = String(await freePort());
  const config: Config = {
    ...loadConfig({
      HOST: '127.0.0.1',
      PORT: port,
      AUTH_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'silent',
      KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
      // Tests drive time with a ManualClock and sweep explicitly; no timer sweeps behind them.
      SWEEP_INTERVAL_MS: '0',
      // Nor does a delivery worker poll behind tests that count statements; those about
      // webhooks turn it on.
      WEBHOOK_DELIVERY_WORKER: 'off',
      // Nor do cost budget leases land in them; the budget tests turn budgets on.
      GRAPHQL_COST_BUDGETS: 'off',
      // Nor a calendar mail sender; the tests of calendar mails turn it on.
      CALENDAR_MAIL_SENDER: 'off',
      ...options.env,
    }),
    database: database.config,
  };
  const service = await startService({
    config,
    logger: silentLogger,
    authenticate: options.authenticate,
    clock: options.clock,
    grants: options.grants,
    fastRoutes: options.fastRoutes,
  });
  return { ...service, config };
}
