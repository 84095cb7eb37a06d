import { randomUUID } from 'node:crypto';
import { AccountStore } from '../../src/accounts/account-store.js';
import { AppStore } from '../../src/accounts/app-store.js';
import { CredentialCache } from '../../src/accounts/credential-cache.js';
import { AuditLog } from '../../src/audit/audit-log.js';
import { AuditStore } from '../../src/audit/audit-store.js';
import { systemClock } from '../../src/clock.js';
import { ChangeEpochStore } from '../../src/db/change-epochs.js';
import type { Database } from '../../src/db/database.js';
import type { AppRow } from '../../src/db/rows.js';
import type { Transaction } from '../../src/db/transactions.js';
import { AuthorizationCodeStore } from '../../src/oauth/authorization-code-store.js';
import { AuthorizationCodes } from '../../src/oauth/authorization-codes.js';
import {
  authorizationCodeGrant,
  type AuthorizationCodeGrant,
} from '../../src/oauth/grants/authorization-code.js';
import {
  clientCredentialsGrant,
  type ClientCredentialsGrant,
} from '../../src/oauth/grants/client-credentials.js';
import type { IssuedTokens } from '../../src/oauth/grants/grant.js';
import { refreshTokenGrant, type RefreshTokenGrant } from '../../src/oauth/grants/refresh-token.js';
import { ClientAuthenticator } from '../../src/oauth/clients/client-authenticator.js';
import { TokenIssuer } from '../../src/oauth/grants/token-issuer.js';
import type { AccessTokenVerifier } from '../../src/oauth/tokens/access-token-verifier.js';
import type { TokenSigner } from '../../src/oauth/tokens/token-signer.js';
import { TokenStore } from '../../src/oauth/tokens/token-store.js';
import { silentLogger } from './logger.js';

/**
 * A point where the first caller stops until the test opens it; later callers pass through.
 * It lets a test put one request's step exactly between two steps of another.
 */
export class Gate {
  readonly reached: Promise<void>;
  private readonly opened: Promise<void>;
  private markReached!: () => void;
  private release!: () => void;
  private used = false;

  constructor() {
    this.reached = new Promise((resolve) => (this.markReached = resolve));
    this.opened = new Promise((resolve) => (this.release = resolve));
  }

  async pass(): Promise<void> {
    if (this.used) return;
    this.used = true;
    this.markReached();
    await this.opened;
  }

  open(): void {
    this.release();
  }
}

/** Gates of the grants: in signing (outside any transaction), or just before a commit. */
export interface TokenServiceGates {
  signing?: Gate;
  beforeCommit?: Gate;
}

/** The three built-in grants' handlers, called directly (no HTTP, no client authentication). */
export interface GatedGrants {
  authorizationCode(client: AppRow, request: AuthorizationCodeGrant): Promise<IssuedTokens>;
  refreshToken(client: AppRow, request: RefreshTokenGrant): Promise<IssuedTokens>;
  clientCredentials(client: AppRow, request: ClientCredentialsGrant): Promise<IssuedTokens>;
}

/**
 * The token grants' rules over the real stores of `db`, with signing replaced by unsigned
 * stand-ins (these tests look at stored rows, not at JWTs) and with the given gates.
 */
export function gatedTokenService(db: Database, gates: TokenServiceGates): GatedGrants {
  const expiresIn = 3600_000;
  const signer = {
    async accessToken() {
      await gates.signing?.pass();
      const issuedAt = Date.now();
      return { token: 'unsigned', jti: randomUUID(), issuedAt, expiresAt: issuedAt + expiresIn };
    },
    async idToken() {
      return 'unsigned';
    },
  };
  const apps = new AppStore(db);
  const credentials = new CredentialCache({ apps, accounts: new AccountStore(db) }, () =>
    new ChangeEpochStore(db).accounts(),
  );
  const issuer = new TokenIssuer({
    tokens: new GatedTokenStore(db, gates.beforeCommit),
    codes: new AuthorizationCodes(new AuthorizationCodeStore(db), systemClock),
    signer: signer as unknown as TokenSigner,
    verifier: { forgetAll() {} } as unknown as AccessTokenVerifier,
    accounts: new AccountStore(db),
    credentials,
    clients: new ClientAuthenticator(apps, credentials),
    audit: new AuditLog(new AuditStore(db), systemClock, silentLogger),
    clock: systemClock,
  });
  return {
    authorizationCode: (client, request) => authorizationCodeGrant.handle(issuer, client, request),
    refreshToken: (client, request) => refreshTokenGrant.handle(issuer, client, request),
    clientCredentials: (client, request) => clientCredentialsGrant.handle(issuer, client, request),
  };
}

class GatedTokenStore extends TokenStore {
  constructor(
    db: Database,
    private readonly beforeCommit: Gate | undefined,
  ) {
    super(db);
  }

  override inTransaction<T>(work: (store: this, tx: Transaction) => Promise<T>): Promise<T> {
    return super.inTransaction(async (store, tx) => {
      const result = await work(store, tx);
      await this.beforeCommit?.pass();
      return result;
    });
  }

  /**
   * A gated rotation runs in a transaction of its own rather than in a group commit, with the
   * same statements, so that the gate can hold it open just before its commit.
   */
  override rotateRefreshToken(
    ...args: Parameters<TokenStore['rotateRefreshToken']>
  ): ReturnType<TokenStore['rotateRefreshToken']> {
    if (!this.beforeCommit) return super.rotateRefreshToken(...args);
    return this.inTransaction((store) => store.rotateRefreshToken(...args));
  }
}

/** Settles a promise into its outcome, so a test can look at both a winner and a loser. */
export function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}
