import type { Database } from '../src/db/database.js';
import type { SharedDependencies } from '../src/shared-dependencies.js';
import type { BenchAccounts } from './accounts.js';
import type { Cleanup } from './cleanup.js';
import type { BenchOptions } from './options.js';
import type { RunningService } from './service.js';

/** What a stage that runs its own service (webhooks, job search) gets from the benchmark. */
export interface StageInput {
  repository: string;
  options: BenchOptions;
  db: Database;
  shared: SharedDependencies;
  accounts: BenchAccounts;
  cleanup: Cleanup;
  service: {
    databaseEnv: Record<string, string>;
    keyEncryptionSecret: string;
    metricsToken: string;
  };
  log: (line: string) => void;
  /** Called with a service before it is stopped (its logs and memory), with the stage's name. */
  beforeStop(service: RunningService, stage: string): void;
}
