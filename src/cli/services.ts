import type { Logger } from 'pino';
import { AccountService } from '../accounts/account-service.js';
import { AccountStore } from '../accounts/account-store.js';
import { AppService } from '../accounts/app-service.js';
import { AppStore } from '../accounts/app-store.js';
import { AuditLog } from '../audit/audit-log.js';
import { systemClock, type Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { SigningKeyStore } from '../oauth/signing-keys/signing-key-store.js';
import { SigningKeys } from '../oauth/signing-keys/signing-keys.js';
import { SecretBox } from '../security/secret-box.js';

/** The services the CLI commands call, wired to one database. */
export interface CliServices {
  accounts: AccountService;
  apps: AppService;
  signingKeys: SigningKeys;
  audit: AuditLog;
}

export function createCliServices(
  db: Database,
  keyEncryptionSecret: string,
  logger: Logger,
  clock: Clock = systemClock,
): CliServices {
  const accountStore = new AccountStore(db);
  return {
    accounts: new AccountService(accountStore, clock),
    apps: new AppService(new AppStore(db), accountStore, clock),
    signingKeys: new SigningKeys(
      new SigningKeyStore(db),
      new SecretBox(keyEncryptionSecret, 'signing-keys'),
      clock,
      logger,
    ),
    audit: new AuditLog(db, clock, logger),
  };
}
