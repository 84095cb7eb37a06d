import { ChangeEpochStore } from '../db/change-epochs.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import { AccountService } from './account-service.js';
import { AccountStore } from './account-store.js';
import { ApiAccessCache } from './api-access-cache.js';
import { ApiAccessService } from './api-access-service.js';
import { ApiAccessStore } from './api-access-store.js';
import type { KnownApi } from './api-catalogue.js';
import { AppService } from './app-service.js';
import { AppStore } from './app-store.js';
import { CredentialCache } from './credential-cache.js';

/** Users, employers and partner apps, as the rest of the service may use them. */
export interface Accounts {
  /** Users, employers and memberships. */
  accounts: AccountService;
  /** Partner apps: registration, credentials, redirect URIs, deletion (all audited). */
  apps: AppService;
  /**
   * The stores themselves, for other capabilities' services that read accounts and apps inside
   * their own rules (the token endpoint, sign-in, the Interview API). Never for a router.
   */
  stores: { accounts: AccountStore; apps: AppStore };
  /** Apps and memberships in memory, for the token endpoint's group-committed writes. */
  credentials: CredentialCache;
  /** Which APIs behind the GraphQL gateway each app may use: the console's and CLI's switches. */
  apiAccess: ApiAccessService;
  /** The same facts in memory, for the gateway's check of every request. */
  apiAccessFacts: ApiAccessCache;
}

/**
 * Builds the accounts capability: one store of each kind and the services over them.
 * `grantTypes` are the names of the token endpoint's grants (the OAuth grant registry's), which
 * apps choose among; they are handed in so that accounts never depends on OAuth. `apis` are the
 * APIs behind the GraphQL gateway (src/apis.ts), for the same reason.
 */
export function composeAccounts(
  shared: SharedDependencies,
  options: { grantTypes: readonly string[]; apis: readonly KnownApi[] },
): Accounts {
  const stores = { accounts: new AccountStore(shared.db), apps: new AppStore(shared.db) };
  const readEpoch = () => new ChangeEpochStore(shared.db).accounts();
  const apiAccessStore = new ApiAccessStore(shared.db);
  const apiAccessFacts = new ApiAccessCache(apiAccessStore, readEpoch, options.apis);
  return {
    accounts: new AccountService(stores.accounts, shared.clock),
    apps: new AppService(
      stores.apps,
      stores.accounts,
      shared.clock,
      shared.audit,
      shared.boxes.clientSecrets,
      options.grantTypes,
    ),
    stores,
    credentials: new CredentialCache(stores, readEpoch),
    apiAccess: new ApiAccessService(
      apiAccessStore,
      stores.apps,
      apiAccessFacts,
      shared.clock,
      shared.audit,
      options.apis,
    ),
    apiAccessFacts,
  };
}
