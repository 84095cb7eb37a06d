import type { AccountService } from '../accounts/account-service.js';
import type { ApiAccessService } from '../accounts/api-access-service.js';
import { API_CATALOGUE } from '../apis.js';
import type { AppService } from '../accounts/app-service.js';
import { composeAccounts } from '../accounts/compose.js';
import { graphqlApis } from '../apis.js';
import { composeDispositionSync } from '../disposition-sync/compose.js';
import type { AuditLog } from '../audit/audit-log.js';
import { composeApis } from '../graphql/api-registry.js';
import {
  composeDocumentRegistration,
  type DocumentRegistration,
} from '../graphql/persisted/compose.js';
import { composeInterviews } from '../interviews/compose.js';
import { composeJobSearch, type JobSearchCapability } from '../job-search/compose.js';
import { composeJobSync } from '../job-sync/compose.js';
import type { PostingWriter } from '../job-sync/posting-writer.js';
import { composeEmployerData } from '../employer-data/compose.js';
import type { EmployerPatcher } from '../employer-data/employer-patcher.js';
import type { SweepCounts } from '../interviews/lifecycle/sweeper.js';
import type { RecordedDeployment } from '../deployment/deployment-settings.js';
import { composeGrants, composeOAuth } from '../oauth/compose.js';
import { composeRecordings } from '../recordings/compose.js';
import { composeRoomSweep } from '../room/compose.js';
import type { SigningKeys } from '../oauth/signing-keys/signing-keys.js';
import type { SandboxTokens } from '../oauth/tokens/sandbox-tokens.js';
import { composeSessions } from '../sessions/compose.js';
import { NotFoundError } from '../errors.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import type { WebhookEndpointService } from '../webhooks/endpoint-service.js';
import { composeWebhooks } from '../webhooks/compose.js';
import { composeCostBudgets } from '../cost-budgets/compose.js';
import type { BudgetSettings } from '../cost-budgets/budget-settings.js';
import { composeMail } from '../mail/compose.js';
import type { CliContext } from './context.js';
import type { ServiceUrls } from './demo.js';
import { resolveSeedOwner, type SeedOwner } from './seed-owner.js';

/** The services the CLI commands call, wired to one database. */
export interface CliServices {
  accounts: AccountService;
  apps: AppService;
  /** Which APIs behind the GraphQL gateway each app may use (`app apis|enable-api|disable-api`). */
  apiAccess: ApiAccessService;
  signingKeys: SigningKeys;
  /** `token issue`: tokens for partners' automated tests, as if the user had consented. */
  sandboxTokens: SandboxTokens;
  audit: AuditLog;
  /** The configured AUTH_URL and API_URL, for commands that print ready-to-run requests. */
  urls: ServiceUrls;
  /**
   * Persists the time-driven interview transitions that are due now, and the room's: abandoned
   * interviews ended (`abandonedEnded`, events whose empty room outlasted the grace period).
   */
  sweepInterviews(): Promise<SweepCounts & { sweptAt: number; abandonedEnded: number }>;
  /** `webhook ...`: any app's endpoints, found by its client id. */
  webhooks: {
    endpoints: WebhookEndpointService;
    /** The app's id; NotFoundError when no app has this client id. */
    appIdOf(clientId: string): Promise<string>;
  };
  /** `graphql persist`: documents registered ahead of time, validated against the schema. */
  graphqlDocuments: DocumentRegistration;
  /** `app budget`: each app's own GraphQL cost budget (audited). */
  budgets: BudgetSettings;
  /** `jobs seed`: the generator of realistic postings, and the index's count. */
  jobSearch: Pick<JobSearchCapability, 'seed' | 'indexedCount'>;
  /** `demo` and `jobs seed`: postings (Job Sync) and the employers they cite (Employer Data). */
  jobs: {
    postings: PostingWriter;
    employers: EmployerPatcher;
    /** JOB_SYNC_INDEXING_DELAY_MS: how long a new posting is PENDING (not yet searched). */
    indexingDelayMs: number;
    /** `jobs seed`: the app and employer named, or the seed's own (reused or created). */
    seedOwner(named: { app?: string; employer?: string }): Promise<SeedOwner>;
  };
  /** Which database and issuer this run uses (`npm run cli` says so; tests composing it need not). */
  context?: CliContext;
}

/**
 * The CLI's services, composed by the same functions as the server's: an app registered here
 * is sealed, audited and checked exactly like one registered on the console.
 */
export function createCliServices(
  shared: SharedDependencies,
  options: {
    /** What the server of this database recorded (src/deployment/): decides sandbox tokens. */
    deployment?: RecordedDeployment;
    context?: CliContext;
  } = {},
): CliServices {
  const grants = composeGrants();
  const accounts = composeAccounts(shared, { grantTypes: grants.names, apis: API_CATALOGUE });
  const sessions = composeSessions(shared, accounts);
  const oauth = composeOAuth(shared, {
    accounts,
    sessions,
    grants,
    deployment: options.deployment,
  });
  // A sweep from cron ends events and abandoned interviews, and finalises recordings left
  // unfinalised: their webhooks are written with them.
  const webhooks = composeWebhooks(shared, { mailer: composeMail(shared).mailer, accounts });
  const outbox = webhooks.outbox;
  const interviews = composeInterviews(shared, {
    accounts,
    recordings: composeRecordings(shared, { outbox }),
    outbox,
  });
  const roomSweep = composeRoomSweep(shared, { interviews });
  const jobSearch = composeJobSearch(shared);
  const employerData = composeEmployerData(shared);
  const jobSync = composeJobSync(shared, {
    outbox,
    employers: employerData.pairs,
    observers: [jobSearch.postingObserver],
  });
  return {
    accounts: accounts.accounts,
    apps: accounts.apps,
    apiAccess: accounts.apiAccess,
    signingKeys: oauth.signingKeys,
    sandboxTokens: oauth.sandboxTokens,
    audit: shared.audit,
    urls: { authUrl: shared.config.authUrl, apiUrl: shared.config.apiUrl },
    sweepInterviews: async () => {
      const counts = await interviews.sweepNow();
      const abandoned = await roomSweep();
      return { ...counts, abandonedEnded: abandoned.length };
    },
    webhooks: {
      endpoints: webhooks.endpoints,
      appIdOf: async (clientId) => {
        const app = await accounts.stores.apps.findByClientId(clientId);
        if (!app) throw new NotFoundError(`no app with client id ${clientId}`, 'app');
        return app.id;
      },
    },
    graphqlDocuments: composeDocumentRegistration(
      shared,
      () =>
        composeApis(
          graphqlApis({
            interviews,
            webhooks,
            dispositionSync: composeDispositionSync(shared),
            jobSearch,
            jobSync,
            employerData,
            publicUrl: shared.config.publicUrl,
          }),
        ).schema,
    ),
    budgets: composeCostBudgets(shared).settings,
    jobSearch,
    jobs: {
      postings: jobSync.writer,
      employers: employerData.patcher,
      indexingDelayMs: shared.config.jobSync.indexingDelayMs,
      seedOwner: (named) =>
        resolveSeedOwner(
          {
            accounts: accounts.accounts,
            apps: accounts.apps,
            apiAccess: accounts.apiAccess,
            stores: accounts.stores,
          },
          named,
        ),
    },
    context: options.context,
  };
}
