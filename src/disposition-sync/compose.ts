import type { SharedDependencies } from '../shared-dependencies.js';
import { DispositionStore } from './disposition-store.js';
import { DispositionSync } from './disposition-sync.js';

/** What Disposition Sync gives the others: its service (the API, the console). */
export interface DispositionSyncCapability {
  dispositions: DispositionSync;
}

/** Disposition Sync (docs/jobs-apis.md): its store over the shared database, and its service. */
export function composeDispositionSync(shared: SharedDependencies): DispositionSyncCapability {
  return { dispositions: new DispositionSync(new DispositionStore(shared.db), shared.clock) };
}
