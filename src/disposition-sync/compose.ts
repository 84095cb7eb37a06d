import type { SharedDependencies } from '../shared-dependencies.js';
import { DispositionRetention, type RunningRetention } from './disposition-retention.js';
import { DispositionStore } from './disposition-store.js';
import { DispositionSync } from './disposition-sync.js';

/** What Disposition Sync gives the others: its service (the API, the console), its retention. */
export interface DispositionSyncCapability {
  dispositions: DispositionSync;
  /** DISPOSITION_RETENTION_DAYS: one bounded purge now (tests, operators); how many it deleted. */
  purgeNow(): Promise<number>;
  /** Starts this process's periodic purge (every process runs one). */
  startPurging(): RunningRetention;
}

/** Disposition Sync (docs/jobs-apis.md): its store over the shared database, and its service. */
export function composeDispositionSync(shared: SharedDependencies): DispositionSyncCapability {
  const store = new DispositionStore(shared.db);
  const retention = new DispositionRetention(
    store,
    shared.clock,
    shared.config.dispositionSync.retentionMs,
  );
  return {
    dispositions: new DispositionSync(store, shared.clock),
    purgeNow: () => retention.purgeNow(),
    startPurging: () => retention.start(shared.logger),
  };
}
