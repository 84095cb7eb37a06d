import type { SharedDependencies } from '../shared-dependencies.js';
import { EmployerPairs, EmployerPatcher } from './employer-patcher.js';
import { EmployerStore } from './employer-store.js';

/** Employer Data: `patchEmployer`, and which employers an app created (for Job Sync). */
export interface EmployerData {
  patcher: EmployerPatcher;
  pairs: EmployerPairs;
}

export function composeEmployerData(shared: SharedDependencies): EmployerData {
  const store = new EmployerStore(shared.db);
  return { patcher: new EmployerPatcher(store, shared.clock), pairs: new EmployerPairs(store) };
}
