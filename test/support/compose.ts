import { composeAccounts, type Accounts } from '../../src/accounts/compose.js';
import { API_CATALOGUE } from '../../src/apis.js';
import { createCliServices, type CliServices } from '../../src/cli/services.js';
import { systemClock, type Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { composeGrants } from '../../src/oauth/compose.js';
import type { Database } from '../../src/db/database.js';
import {
  createSharedDependencies,
  type SharedDependencies,
} from '../../src/shared-dependencies.js';
import { silentLogger } from './logger.js';
import { TEST_KEY_ENCRYPTION_SECRET } from './service.js';

/**
 * What the entry points build once, for a test that composes capabilities itself: the given
 * database, the test key-encryption secret, a silent logger and the configuration `env` makes.
 */
export function testSharedDependencies(
  db: Database,
  options: { clock?: Clock; env?: Record<string, string> } = {},
): SharedDependencies {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
    ...options.env,
  });
  return createSharedDependencies({
    db,
    clock: options.clock ?? systemClock,
    logger: silentLogger,
    config,
    keyEncryptionSecret: TEST_KEY_ENCRYPTION_SECRET,
  });
}

/** The accounts capability as the server composes it: audited, secrets sealed. */
export function testAccounts(db: Database, clock: Clock = systemClock): Accounts {
  return composeAccounts(testSharedDependencies(db, { clock }), {
    grantTypes: composeGrants().names,
    apis: API_CATALOGUE,
  });
}

/** The CLI's services over `db`, composed as `npm run cli` composes them. */
export function testCliServices(
  db: Database,
  options: { clock?: Clock; env?: Record<string, string> } = {},
): CliServices {
  return createCliServices(testSharedDependencies(db, options));
}
