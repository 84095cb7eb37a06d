import type { Principal } from '../../src/oauth/principal.js';
import type { TestDatabase } from './databases.js';
import { insertTenant } from './interview-fixtures.js';
import { LiveUpgradeGate } from './live-upgrade-gate.js';
import { startTestService } from './service.js';

/**
 * A service whose pages are reached through a LiveUpgradeGate (their links and the origin live
 * connections must come from are the gate's), with every bearer token standing for one app of
 * a new tenant named `name`.
 */
export async function startGatedService(
  database: TestDatabase,
  name: string,
): Promise<{ gate: LiveUpgradeGate; service: Awaited<ReturnType<typeof startTestService>> }> {
  const tenant = await insertTenant(database.db, name);
  const principal: Principal = {
    kind: 'app',
    appId: tenant.appId,
    ownerUserId: tenant.userId,
    clientId: `${name}-client`,
    jti: `${name}-token`,
    employerId: tenant.employerId,
    scopes: ['employer_access'],
  };
  const gate = await LiveUpgradeGate.listen();
  const service = await startTestService(database, {
    authenticate: async () => principal,
    env: { PUBLIC_URL: gate.url },
  });
  gate.target(service.url);
  return { gate, service };
}
