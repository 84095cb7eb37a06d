import type { AppStore } from '../../accounts/app-store.js';
import type { CredentialCache } from '../../accounts/credential-cache.js';
import type { AppRow } from '../../db/rows.js';
import { matchesDigest } from '../../security/random.js';
import { OAuthError } from '../oauth-error.js';
import { BASIC_CHALLENGE, type PresentedClient } from './client-credentials.js';

export interface AuthenticatedClient {
  app: AppRow;
  method: PresentedClient['method'];
}

/**
 * Checks presented credentials against the app: confidential apps must prove their secret
 * (compared as SHA-256 digests in constant time); public apps identify themselves by
 * client_id alone and must never present a secret.
 */
export class ClientAuthenticator {
  constructor(
    private readonly apps: AppStore,
    private readonly cache: CredentialCache,
  ) {}

  /**
   * `fromCache`: the app may come from the credential cache; `true` only for a caller whose
   * writes are refused when the cached facts turn out stale, `'current'` for any caller (the
   * entry is checked against the accounts epoch read now; see CredentialCache).
   */
  async authenticate(
    presented: PresentedClient,
    options: { fromCache?: boolean | 'current' } = {},
  ): Promise<AuthenticatedClient> {
    if (!options.fromCache)
      return this.check(presented, await this.apps.findByClientId(presented.clientId));
    try {
      const app =
        options.fromCache === 'current'
          ? await this.cache.currentAppByClientId(presented.clientId)
          : await this.cache.appByClientId(presented.clientId);
      return this.check(presented, app);
    } catch (error) {
      // The cached entry may predate a secret rotated elsewhere: the database decides, and the
      // entry is read anew next time.
      this.cache.forget(presented.clientId);
      throw error;
    }
  }

  private check(presented: PresentedClient, app: AppRow | undefined): AuthenticatedClient {
    const failed = () => this.failure(presented);
    if (!app) throw failed();
    if (app.client_type === 'public') {
      if (presented.method !== 'none') throw failed();
      return { app, method: 'none' };
    }
    if (presented.method === 'none' || !app.client_secret_hash) throw failed();
    if (!matchesDigest(presented.clientSecret, app.client_secret_hash)) throw failed();
    return { app, method: presented.method };
  }

  private failure(presented: PresentedClient): OAuthError {
    const error = new OAuthError('invalid_client', 'client authentication failed');
    if (presented.method === 'client_secret_basic') error.challenge = BASIC_CHALLENGE;
    return error;
  }
}
