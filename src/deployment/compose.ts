import type { SharedDependencies } from '../shared-dependencies.js';
import { DeploymentSettings } from './deployment-settings.js';
import { DeploymentStore } from './deployment-store.js';

/**
 * The deployment's recorded settings. Built from the database and the clock alone, because the
 * CLI reads them before it knows the configuration its other capabilities are built with.
 */
export function composeDeployment(shared: Pick<SharedDependencies, 'db' | 'clock'>): {
  settings: DeploymentSettings;
} {
  return { settings: new DeploymentSettings(new DeploymentStore(shared.db), shared.clock) };
}
