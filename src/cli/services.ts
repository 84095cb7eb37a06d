import type { Logger } from 'pino';
import { AccountService } from '../accounts/account-service.js';
import { AccountStore } from '../accounts/account-store.js';
import { AppService, CLIENT_SECRET_PURPOSE } from '../accounts/app-service.js';
import { AppStore } from '../accounts/app-store.js';
import { AuditLog } from '../audit/audit-log.js';
import { systemClock, type Clock } from '../clock.js';
import {
  DEFAULT_ARCHIVE_AFTER_DAYS,
  DEFAULT_SIGNING_KEY_ACTIVATION_DELAY_SECONDS,
} from '../config.js';
import type { Database } from '../db/database.js';
import { archiveDelayMs } from '../interviews/lifecycle/settle.js';
import { InterviewSweeper, type SweepCounts } from '../interviews/lifecycle/sweeper.js';
import { SigningKeyStore } from '../oauth/signing-keys/signing-key-store.js';
import { SigningKeys } from '../oauth/signing-keys/signing-keys.js';
import { SecretBox } from '../security/secret-box.js';
import type { ServiceUrls } from './demo.js';

/** The services the CLI commands call, wired to one database. */
export interface CliServices {
  accounts: AccountService;
  apps: AppService;
  signingKeys: SigningKeys;
  audit: AuditLog;
  /** The configured AUTH_URL and API_URL, for commands that print ready-to-run requests. */
  urls: ServiceUrls;
  /** Persists the time-driven interview transitions that are due now. */
  sweepInterviews(): Promise<SweepCounts & { sweptAt: number }>;
}

export function createCliServices(
  db: Database,
  keyEncryptionSecret: string,
  logger: Logger,
  clock: Clock = systemClock,
  archiveAfterDays = DEFAULT_ARCHIVE_AFTER_DAYS,
  urls: ServiceUrls = { authUrl: 'http://localhost:3000', apiUrl: 'http://localhost:3000' },
  signingKeyActivationDelayMs = DEFAULT_SIGNING_KEY_ACTIVATION_DELAY_SECONDS * 1000,
): CliServices {
  const accountStore = new AccountStore(db);
  const sweeper = new InterviewSweeper(db, archiveDelayMs(archiveAfterDays));
  return {
    accounts: new AccountService(accountStore, clock),
    apps: new AppService(
      new AppStore(db),
      accountStore,
      clock,
      undefined,
      new SecretBox(keyEncryptionSecret, CLIENT_SECRET_PURPOSE),
    ),
    signingKeys: new SigningKeys(
      new SigningKeyStore(db),
      new SecretBox(keyEncryptionSecret, 'signing-keys'),
      clock,
      logger,
      signingKeyActivationDelayMs,
    ),
    audit: new AuditLog(db, clock, logger),
    urls,
    async sweepInterviews() {
      const sweptAt = clock.now();
      return { sweptAt, ...(await sweeper.sweep(sweptAt)) };
    },
  };
}
