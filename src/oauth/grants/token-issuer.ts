import type { components } from '../../../generated/openapi.js';
import type {
  AccountStore,
  EmployerMembership,
  UserWithEmployers,
} from '../../accounts/account-store.js';
import type { CredentialCache } from '../../accounts/credential-cache.js';
import { allowsGrant } from '../../accounts/grant-types.js';
import type { AuditEntry, AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../clock.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { StaleFacts } from '../../db/group-commit.js';
import type { AccessTokenRow, AppRow, RefreshTokenRow, UserRow } from '../../db/rows.js';
import { sha256Hex } from '../../security/random.js';
import type { AuthorizationCodes } from '../authorization-codes.js';
import type { ClientAuthenticator } from '../clients/client-authenticator.js';
import type { PresentedClient } from '../clients/client-credentials.js';
import { OAuthError, invalidEmployer } from '../oauth-error.js';
import { hasScope } from '../scopes.js';
import type { AccessTokenVerifier } from '../tokens/access-token-verifier.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_MS } from '../tokens/lifetimes.js';
import type { TokenSigner } from '../tokens/token-signer.js';
import type { IssuedRows, RefreshConsumption, TokenStore } from '../tokens/token-store.js';

/** The token response without `convid`, which the HTTP layer adds from the request id. */
export type IssuedTokens = Omit<components['schemas']['TokenResponse'], 'convid'>;

export interface TokenIssuerDependencies {
  tokens: TokenStore;
  codes: AuthorizationCodes;
  signer: TokenSigner;
  verifier: AccessTokenVerifier;
  accounts: AccountStore;
  /** Apps and memberships in memory, for grants that authenticate from it (Grant.cachedClient). */
  credentials: CredentialCache;
  /** Authenticates the client of a token request (TokenIssuer.issue). */
  clients: ClientAuthenticator;
  audit: AuditLog;
  clock: Clock;
}

/**
 * The cached facts a token was issued from changed before it could be stored; nothing was
 * stored and the cache has started over. TokenIssuer.issue reads them anew from the database.
 */
class CachedFactsChanged extends Error {
  constructor() {
    super('the app or membership changed while the token was being issued');
  }
}

/** What issuing needs of a grant (./grant.ts's Grant, which refers to this module). */
interface IssuingGrant<Request> {
  readonly name: string;
  readonly publicClients: boolean;
  readonly cachedClient?: boolean;
  handle(issuer: TokenIssuer, client: AppRow, request: Request): Promise<IssuedTokens>;
}

/** An access token signed for a user, with the row that records it (not yet stored). */
export interface SignedAccessToken {
  token: string;
  record: AccessTokenRow;
}

/**
 * What the grants share (DESIGN §3): the stores they read and write, signing access and ID
 * tokens, the employer rules, storing what they issued, revoking after a replay and auditing the
 * issue. Each grant module (grants/*.ts) receives it; it knows neither HTTP nor SQL.
 */
export class TokenIssuer {
  readonly tokens: TokenStore;
  readonly codes: AuthorizationCodes;
  readonly clock: Clock;

  /**
   * `requestId`: the token request this issuer serves (forRequest), written on the audit entries
   * it stores and announces.
   */
  constructor(
    private readonly deps: TokenIssuerDependencies,
    private readonly requestId: string | null = null,
  ) {
    this.tokens = deps.tokens;
    this.codes = deps.codes;
    this.clock = deps.clock;
  }

  /** This issuer for one token request: its audit entries carry the request's id. */
  forRequest(requestId: string): TokenIssuer {
    return new TokenIssuer(this.deps, requestId);
  }

  /** `entry` as this issuer records it: with the id of the request it serves. */
  private stamped<Entry extends AuditEntry>(entry: Entry): Entry {
    return this.requestId === null ? entry : { ...entry, requestId: this.requestId };
  }

  /**
   * Issues a grant's tokens to the presented client, for a request its validator accepted. A
   * grant that may authenticate from the credential cache (Grant.cachedClient) starts there; a
   * refusal of the cached entry (a secret or the app's grants changed elsewhere) is asked again
   * of the database, and a commit refused because the cached facts moved meanwhile re-reads the
   * client and the grant's cached facts from the database and stores once more. The form is not
   * validated again, nor is anything re-read that came from the database in the first place.
   */
  async issue<Request>(
    grant: IssuingGrant<Request>,
    presented: PresentedClient,
    request: Request,
  ): Promise<IssuedTokens> {
    const fromDatabase = () => this.authorizedClient(grant, presented, false);
    if (!grant.cachedClient) return grant.handle(this, await fromDatabase(), request);
    const cached = await this.authorizedClient(grant, presented, true).catch((error: unknown) => {
      if (error instanceof OAuthError) return fromDatabase();
      throw error;
    });
    try {
      return await grant.handle(this, cached, request);
    } catch (error) {
      if (!(error instanceof CachedFactsChanged)) throw error;
      return grant.handle(this, await fromDatabase(), request);
    }
  }

  /** The presented client once authenticated and allowed to use `grant`. */
  private async authorizedClient(
    grant: IssuingGrant<never>,
    presented: PresentedClient,
    fromCache: boolean,
  ): Promise<AppRow> {
    const { app } = await this.deps.clients.authenticate(presented, { fromCache });
    if (!allowsGrant(app, grant.name)) {
      throw new OAuthError('unauthorized_client', `this app may not use the ${grant.name} grant`);
    }
    if (app.client_type === 'public' && !grant.publicClients) {
      throw new OAuthError(
        'unauthorized_client',
        `public clients cannot use the ${grant.name} grant`,
      );
    }
    return app;
  }

  /**
   * Stores what a grant issued. The client was authenticated moments earlier; if its app has
   * been deleted since (the console deletes apps, and their rows go with them), the rows that
   * refer to it cannot be stored: for the client that is an app that no longer exists, the
   * same answer it gets from then on, not a server error.
   */
  async storing<T>(store: () => Promise<T>): Promise<T> {
    try {
      return await store();
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      throw new OAuthError(
        'invalid_client',
        'client authentication failed: the app no longer exists',
      );
    }
  }

  /**
   * A used code or refresh token came back: it may have been stolen, so everything issued from
   * it is revoked (and forgotten by this process's verifier cache) before the request is refused.
   * `revoke` runs in one transaction: a family marked revoked with its access tokens still
   * working would stay that way, since a revoked family is never revoked again.
   */
  async revokeAfterReplay(
    revoke: () => Promise<string[]>,
    entry: AuditEntry & { details: Record<string, unknown> },
    description: string,
  ): Promise<OAuthError> {
    const revoked = await revoke();
    await this.deps.verifier.forgetAll();
    await this.deps.audit.record(
      this.stamped({
        ...entry,
        details: { ...entry.details, revokedAccessTokens: revoked.length },
      }),
    );
    return new OAuthError('invalid_grant', description);
  }

  async requireUser(userId: string): Promise<UserRow> {
    const user = await this.deps.accounts.findUserById(userId);
    if (!user) throw new OAuthError('invalid_grant', 'the user of this grant no longer exists');
    return user;
  }

  /** requireUser, with the user's employers read in the same statement. */
  async requireUserWithEmployers(userId: string): Promise<UserWithEmployers> {
    const found = await this.deps.accounts.findUserWithEmployers(userId);
    if (!found) throw new OAuthError('invalid_grant', 'the user of this grant no longer exists');
    return found;
  }

  /**
   * An employer for a 3-legged token: one the user belongs to, with employer_access granted.
   * `memberships`: the user's employers when already read (requireUserWithEmployers).
   */
  async employerForUser(
    userId: string,
    grantedScope: string,
    employer: string | undefined,
    memberships?: readonly EmployerMembership[],
  ): Promise<string | null> {
    if (employer === undefined) return null;
    requireEmployerAccess(grantedScope);
    const member = memberships
      ? memberships.some((membership) => membership.employer.id === employer)
      : (await this.deps.accounts.findMembership(userId, employer)) !== undefined;
    if (!member) throw invalidEmployer();
    return employer;
  }

  /**
   * An employer for a token the app gets for itself: one the app's owner belongs to, with
   * employer_access in the scope.
   */
  async employerForApp(
    client: AppRow,
    scope: string,
    employer: string | undefined,
  ): Promise<string | null> {
    if (employer === undefined || this.deps.credentials.factsAsOf(client) === undefined) {
      return this.employerForUser(client.owner_user_id, scope, employer);
    }
    requireEmployerAccess(scope);
    if (!(await this.deps.credentials.isMember(client.owner_user_id, employer))) {
      throw invalidEmployer();
    }
    return employer;
  }

  /** Signs an access token acting for `user`; the caller stores its record. */
  signUserAccessToken(
    client: AppRow,
    user: UserRow,
    scope: string,
    employerId: string | null,
  ): Promise<SignedAccessToken> {
    return this.signAccessToken(client, user.id, scope, employerId);
  }

  /**
   * Signs and stores an access token the app gets for itself (`sub` is `app:<client_id>`) with
   * the audit record of its issue, and returns the token response without refresh or ID token.
   * Both rows are group-committed; a client that came from the credential cache is checked there
   * against changes made since it was read (CachedFactsChanged).
   */
  async issueAppAccessToken(
    client: AppRow,
    scope: string,
    employerId: string | null,
    grant: string,
  ): Promise<IssuedTokens> {
    const signed = await this.signAccessToken(client, null, scope, employerId);
    const entry = this.stamped(issuedEntry(client, null, grant, scope, employerId));
    try {
      await this.storing(() =>
        this.deps.tokens.insertIssuedAccessToken(
          signed.record,
          this.deps.audit.row(entry),
          this.deps.credentials.factsAsOf(client),
        ),
      );
    } catch (error) {
      if (!(error instanceof StaleFacts)) {
        // The app is gone (storing's answer): its cached entry goes with it.
        if (error instanceof OAuthError) this.deps.credentials.forget(client.client_id);
        throw error;
      }
      await this.deps.credentials.forgetBefore(error.epoch);
      throw new CachedFactsChanged();
    }
    this.deps.audit.announce(entry);
    return {
      access_token: signed.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope,
    };
  }

  /** An access token for a user (`sub` is `user:<id>`) or for the app itself, and its record. */
  private async signAccessToken(
    client: AppRow,
    userId: string | null,
    scope: string,
    employerId: string | null,
  ): Promise<SignedAccessToken> {
    const signed = await this.deps.signer.accessToken({
      sub: userId === null ? `app:${client.client_id}` : `user:${userId}`,
      azp: client.client_id,
      scope,
      app_account: client.owner_user_id,
      ...(employerId && { emp: employerId }),
    });
    return {
      token: signed.token,
      record: {
        jti: signed.jti,
        app_id: client.id,
        user_id: userId,
        employer_id: employerId,
        scope,
        auth_code_hash: null,
        refresh_family_id: null,
        issued_at: signed.issuedAt,
        expires_at: signed.expiresAt,
        revoked_at: null,
      },
    };
  }

  /** `memberships`: the user's employers when already read (requireUserWithEmployers). */
  async idToken(
    client: AppRow,
    user: UserRow,
    grantedScope: string,
    authTime: number,
    nonce: string | null,
    memberships?: readonly EmployerMembership[],
  ): Promise<string> {
    const employers = hasScope(grantedScope, 'employer_access')
      ? (memberships ?? (await this.deps.accounts.listEmployersOfUser(user.id))).map(
          ({ employer }) => ({
            id: employer.id,
            name: employer.name,
          }),
        )
      : undefined;
    return this.deps.signer.idToken({
      sub: user.id,
      aud: client.client_id,
      auth_time: Math.floor(authTime / 1000),
      ...(nonce && { nonce }),
      ...(hasScope(grantedScope, 'email') && {
        email: user.email,
        email_verified: user.email_verified,
      }),
      ...(employers && { employers }),
    });
  }

  /** The stored form of a new refresh token of a family. */
  refreshRow(token: string, familyId: string, employerId: string | null): RefreshTokenRow {
    const now = this.deps.clock.now();
    return {
      token_hash: sha256Hex(token),
      family_id: familyId,
      employer_id: employerId,
      issued_at: now,
      expires_at: now + REFRESH_TOKEN_TTL_MS,
      consumed_at: null,
    };
  }

  /**
   * Stores the rows a user grant issued and the audit row of the issue, on `store` (a
   * transaction's); once that has committed, the caller announces the entry (announceIssued).
   */
  storeIssued(
    store: TokenStore,
    rows: Omit<IssuedRows, 'audit'>,
    entry: AuditEntry,
  ): Promise<void> {
    return store.insertIssued({ ...rows, audit: this.deps.audit.row(this.stamped(entry)) });
  }

  /**
   * Rotates a refresh token (TokenStore.rotateRefreshToken): `rows` and the audit row of the
   * issue are stored only if the token was consumed, together with its consumption; once that
   * has committed, the caller announces the entry (announceIssued).
   */
  rotateRefreshToken(
    familyId: string,
    tokenHash: string,
    rows: Omit<IssuedRows, 'audit' | 'family'>,
    entry: AuditEntry,
  ): Promise<RefreshConsumption> {
    return this.tokens.rotateRefreshToken(familyId, tokenHash, this.clock.now(), {
      ...rows,
      audit: this.deps.audit.row(this.stamped(entry)),
    });
  }

  /** Logs an issue's audit entry, after the transaction that stored it committed. */
  announceIssued(entry: AuditEntry): void {
    this.deps.audit.announce(this.stamped(entry));
  }
}

/** The audit entry of tokens a grant issued (for the token endpoint and sandbox tokens alike). */
export function issuedEntry(
  client: AppRow,
  userId: string | null,
  grant: string,
  scope: string,
  employerId: string | null,
): AuditEntry {
  return {
    type: 'token.issued',
    actorUserId: userId,
    appId: client.id,
    employerId,
    details: { grant, scope },
  };
}

/** An employer token needs the employer_access scope. */
export function requireEmployerAccess(scope: string): void {
  if (!hasScope(scope, 'employer_access')) {
    throw new OAuthError(
      'invalid_scope',
      'employer needs the employer_access scope to have been granted',
    );
  }
}
