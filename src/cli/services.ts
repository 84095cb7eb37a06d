import { AccountService } from '../accounts/account-service.js';
import { AccountStore } from '../accounts/account-store.js';
import { AppService } from '../accounts/app-service.js';
import { AppStore } from '../accounts/app-store.js';
import { systemClock, type Clock } from '../clock.js';
import type { Database } from '../db/database.js';

/** The services the CLI commands call, wired to one database. */
export interface CliServices {
  accounts: AccountService;
  apps: AppService;
}

export function createCliServices(db: Database, clock: Clock = systemClock): CliServices {
  const accountStore = new AccountStore(db);
  return {
    accounts: new AccountService(accountStore, clock),
    apps: new AppService(new AppStore(db), accountStore, clock),
  };
}
