import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { AccountStore } from '../../accounts/account-store.js';
import type { AuditEntry, AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../clock.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import type { AccessTokenRow, AppRow, AuthorizationCodeRow, UserRow } from '../../db/rows.js';
import { randomToken, sha256Hex } from '../../security/random.js';
import type { AuthorizationCodes } from '../authorization-codes.js';
import { OAuthError, invalidEmployer } from '../oauth-error.js';
import { hasScope, parseScope, scopeSet } from '../scopes.js';
import type { AccessTokenVerifier } from '../tokens/access-token-verifier.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_MS } from '../tokens/lifetimes.js';
import type { TokenSigner } from '../tokens/token-signer.js';
import type { TokenStore } from '../tokens/token-store.js';

type Schemas = components['schemas'];
export type AuthorizationCodeGrant = Schemas['AuthorizationCodeGrantRequest'];
export type RefreshTokenGrant = Schemas['RefreshTokenGrantRequest'];
export type ClientCredentialsGrant = Schemas['ClientCredentialsGrantRequest'];
/** The token response without `convid`, which the HTTP layer adds from the request id. */
export type IssuedTokens = Omit<Schemas['TokenResponse'], 'convid'>;

export interface TokenServiceDependencies {
  tokens: TokenStore;
  codes: AuthorizationCodes;
  signer: TokenSigner;
  verifier: AccessTokenVerifier;
  accounts: AccountStore;
  audit: AuditLog;
  clock: Clock;
}

/** What an authorization code yields once its checks pass: signed, not yet stored. */
interface CodeTokens {
  user: UserRow;
  employerId: string | null;
  refresh: { familyId: string; token: string } | undefined;
  access: { token: string; record: AccessTokenRow };
  idToken: string;
}

/** Scopes a client-credentials token may carry: it acts for the app, not for a person. */
const CLIENT_CREDENTIALS_SCOPES = new Set(['employer_access']);

/** The rules of the three grants (DESIGN §3); knows neither HTTP nor SQL. */
export class TokenService {
  constructor(private readonly deps: TokenServiceDependencies) {}

  /**
   * Exchanges a code. The code is consumed in the same transaction that stores its tokens, so
   * of concurrent exchanges exactly one stores anything, and every other one, a replay, finds
   * those tokens and revokes them.
   */
  async authorizationCode(client: AppRow, request: AuthorizationCodeGrant): Promise<IssuedTokens> {
    const { codes } = this.deps;
    const code = await codes.find(request.code);
    if (!code) throw new OAuthError('invalid_grant', 'code is invalid or expired');
    if (code.consumed_at !== null) throw await this.codeReplayed(code, client);
    let prepared: CodeTokens;
    try {
      prepared = await this.prepareCodeTokens(client, code, request);
    } catch (error) {
      // A code presented wrongly is spent all the same.
      if ((await codes.consume(request.code)).outcome === 'replayed') {
        throw await this.codeReplayed(code, client);
      }
      throw error;
    }
    const redeemed = await this.storing(() =>
      codes.redeem(request.code, (tx) =>
        this.storeCodeTokens(this.deps.tokens.on(tx), client, code, prepared),
      ),
    );
    // A concurrent exchange of the same code stored its tokens first: this one is a replay.
    if (!redeemed) throw await this.codeReplayed(code, client);

    const { user, employerId, refresh, access, idToken } = prepared;
    await this.auditIssued(client, user.id, 'authorization_code', code.scope, employerId);
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: code.scope,
      id_token: idToken,
      ...(refresh && { refresh_token: refresh.token }),
    };
  }

  /** Checks the code's bindings, user and employer, and signs its tokens; stores nothing. */
  private async prepareCodeTokens(
    client: AppRow,
    code: AuthorizationCodeRow,
    request: AuthorizationCodeGrant,
  ): Promise<CodeTokens> {
    checkCodeBinding(code, client, request, this.deps.clock.now());
    const user = await this.requireUser(code.user_id);
    const employerId = await this.employerForUser(user.id, code.scope, request.employer);
    const refresh = hasScope(code.scope, 'offline_access')
      ? { familyId: randomUUID(), token: randomToken(32) }
      : undefined;
    const access = await this.signUserAccessToken(client, user, code.scope, employerId);
    const idToken = await this.idToken(client, user, code.scope, code.auth_time, code.nonce);
    return { user, employerId, refresh, access, idToken };
  }

  private async storeCodeTokens(
    store: TokenStore,
    client: AppRow,
    code: AuthorizationCodeRow,
    { user, employerId, refresh, access }: CodeTokens,
  ): Promise<void> {
    const now = this.deps.clock.now();
    if (refresh) {
      await store.insertFamily({
        id: refresh.familyId,
        app_id: client.id,
        user_id: user.id,
        scope: code.scope,
        auth_code_hash: code.code_hash,
        auth_time: code.auth_time,
        created_at: now,
        revoked_at: null,
        revoked_reason: null,
      });
      await store.insertRefreshToken(this.refreshRow(refresh.token, refresh.familyId, employerId));
    }
    await store.insertAccessToken({
      ...access.record,
      auth_code_hash: code.code_hash,
      refresh_family_id: refresh?.familyId ?? null,
    });
  }

  private codeReplayed(code: AuthorizationCodeRow, client: AppRow): Promise<OAuthError> {
    return this.revokeAfterReplay(
      () =>
        this.deps.tokens.inTransaction((store) =>
          store.revokeIssuedFromCode(code.code_hash, 'code_replay', this.deps.clock.now()),
        ),
      {
        type: 'code.replayed',
        actorUserId: code.user_id,
        appId: code.app_id,
        details: { presentedBy: client.client_id },
      },
      'code has already been used; every token issued from it has been revoked',
    );
  }

  async refreshToken(client: AppRow, request: RefreshTokenGrant): Promise<IssuedTokens> {
    const { tokens, clock } = this.deps;
    const tokenHash = sha256Hex(request.refresh_token);
    // The presenting client is checked before anything is consumed, so a token presented by
    // the wrong client leaves the rightful client's session intact.
    const presented = await tokens.findRefreshToken(tokenHash);
    const presentedFamily = presented && (await tokens.findFamily(presented.family_id));
    if (!presentedFamily || presentedFamily.app_id !== client.id) {
      throw new OAuthError('invalid_grant', 'refresh_token is invalid');
    }
    const family = presentedFamily;
    const scope = narrowedScope(family.scope, request.scope);
    const user = await this.requireUser(family.user_id);
    const employerId = await this.employerForUser(user.id, scope, request.employer);

    const next = randomToken(32);
    const access = await this.signUserAccessToken(client, user, scope, employerId);
    const idToken = await this.idToken(client, user, family.scope, family.auth_time, null);
    const outcome = await this.storing(() =>
      tokens.inTransaction(async (store) => {
        await store.lockFamily(family.id);
        const consumption = await store.consumeRefreshToken(tokenHash, clock.now());
        if (consumption.outcome !== 'consumed') return consumption.outcome;
        await store.insertRefreshToken(this.refreshRow(next, family.id, employerId));
        await store.insertAccessToken({ ...access.record, refresh_family_id: family.id });
        return 'consumed' as const;
      }),
    );

    if (outcome === 'reused') {
      throw await this.revokeAfterReplay(
        () =>
          tokens.inTransaction((store) =>
            store.revokeFamily(family.id, 'refresh_token_reuse', clock.now()),
          ),
        {
          type: 'refresh_token.reused',
          actorUserId: user.id,
          appId: client.id,
          details: { familyId: family.id },
        },
        'refresh_token has already been used; every token of its family has been revoked',
      );
    }
    if (outcome !== 'consumed') {
      throw new OAuthError(
        'invalid_grant',
        `refresh_token is ${outcome === 'unknown' ? 'invalid' : outcome}`,
      );
    }
    await this.auditIssued(client, user.id, 'refresh_token', scope, employerId);
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope,
      refresh_token: next,
      id_token: idToken,
    };
  }

  async clientCredentials(client: AppRow, request: ClientCredentialsGrant): Promise<IssuedTokens> {
    if (client.client_type === 'public') {
      throw new OAuthError(
        'unauthorized_client',
        'public clients cannot use the client_credentials grant',
      );
    }
    const requested = parseScope(request.scope);
    const refused = requested.find((scope) => !CLIENT_CREDENTIALS_SCOPES.has(scope));
    if (refused) {
      throw new OAuthError(
        'invalid_scope',
        `scope ${refused} cannot be granted to client_credentials; use employer_access`,
      );
    }
    const scope = scopeSet(requested);
    let employerId: string | null = null;
    if (request.employer !== undefined) {
      requireEmployerAccess(scope);
      if (!(await this.deps.accounts.findMembership(client.owner_user_id, request.employer))) {
        throw invalidEmployer();
      }
      employerId = request.employer;
    }
    const signed = await this.deps.signer.accessToken({
      sub: `app:${client.client_id}`,
      azp: client.client_id,
      scope,
      app_account: client.owner_user_id,
      ...(employerId && { emp: employerId }),
    });
    await this.storing(() =>
      this.deps.tokens.insertAccessToken({
        jti: signed.jti,
        app_id: client.id,
        user_id: null,
        employer_id: employerId,
        scope,
        auth_code_hash: null,
        refresh_family_id: null,
        issued_at: signed.issuedAt,
        expires_at: signed.expiresAt,
        revoked_at: null,
      }),
    );
    await this.auditIssued(client, null, 'client_credentials', scope, employerId);
    return {
      access_token: signed.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope,
    };
  }

  /**
   * Stores what a grant issued. The client was authenticated moments earlier; if its app has
   * been deleted since (the console deletes apps, and their rows go with them), the rows that
   * refer to it cannot be stored: for the client that is an app that no longer exists, the
   * same answer it gets from then on, not a server error.
   */
  private async storing<T>(store: () => Promise<T>): Promise<T> {
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
  private async revokeAfterReplay(
    revoke: () => Promise<string[]>,
    entry: AuditEntry & { details: Record<string, unknown> },
    description: string,
  ): Promise<OAuthError> {
    const revoked = await revoke();
    this.deps.verifier.forgetAll();
    await this.deps.audit.record({
      ...entry,
      details: { ...entry.details, revokedAccessTokens: revoked.length },
    });
    return new OAuthError('invalid_grant', description);
  }

  private async requireUser(userId: string): Promise<UserRow> {
    const user = await this.deps.accounts.findUserById(userId);
    if (!user) throw new OAuthError('invalid_grant', 'the user of this grant no longer exists');
    return user;
  }

  /** An employer for a 3-legged token: one the user belongs to, with employer_access granted. */
  private async employerForUser(
    userId: string,
    grantedScope: string,
    employer: string | undefined,
  ): Promise<string | null> {
    if (employer === undefined) return null;
    requireEmployerAccess(grantedScope);
    if (!(await this.deps.accounts.findMembership(userId, employer))) throw invalidEmployer();
    return employer;
  }

  private async signUserAccessToken(
    client: AppRow,
    user: UserRow,
    scope: string,
    employerId: string | null,
  ) {
    const signed = await this.deps.signer.accessToken({
      sub: `user:${user.id}`,
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
        user_id: user.id,
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

  private async idToken(
    client: AppRow,
    user: UserRow,
    grantedScope: string,
    authTime: number,
    nonce: string | null,
  ): Promise<string> {
    const employers = hasScope(grantedScope, 'employer_access')
      ? (await this.deps.accounts.listEmployersOfUser(user.id)).map(({ employer }) => ({
          id: employer.id,
          name: employer.name,
        }))
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

  private refreshRow(token: string, familyId: string, employerId: string | null) {
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

  private auditIssued(
    client: AppRow,
    userId: string | null,
    grant: string,
    scope: string,
    employerId: string | null,
  ): Promise<void> {
    return this.deps.audit.record({
      type: 'token.issued',
      actorUserId: userId,
      appId: client.id,
      employerId,
      details: { grant, scope },
    });
  }
}

/** The checks that bind a code to its client, redirect_uri, lifetime and PKCE challenge. */
function checkCodeBinding(
  code: AuthorizationCodeRow,
  client: AppRow,
  request: AuthorizationCodeGrant,
  now: number,
): void {
  if (code.app_id !== client.id)
    throw new OAuthError('invalid_grant', 'code was issued to another client');
  if (code.expires_at <= now) throw new OAuthError('invalid_grant', 'code has expired');
  if (code.redirect_uri !== request.redirect_uri) {
    throw new OAuthError(
      'invalid_grant',
      'redirect_uri does not match the one of the authorization request',
    );
  }
  if (code.code_challenge === null) {
    if (request.code_verifier !== undefined) {
      throw new OAuthError(
        'invalid_grant',
        'code_verifier was sent but the authorization request had no code_challenge',
      );
    }
    if (client.client_type === 'public') {
      throw new OAuthError('invalid_grant', 'public clients must use PKCE');
    }
    return;
  }
  if (request.code_verifier === undefined) {
    throw new OAuthError(
      'invalid_grant',
      'code_verifier is required: the authorization request had a code_challenge',
    );
  }
  const expected = Buffer.from(code.code_challenge);
  const actual = Buffer.from(
    createHash('sha256').update(request.code_verifier).digest('base64url'),
  );
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  }
}

/** A refresh may ask for fewer scopes than were granted, never more. */
function narrowedScope(granted: string, requested: string | undefined): string {
  if (requested === undefined) return granted;
  const allowed = new Set(granted.split(' '));
  const scopes = parseScope(requested);
  const widened = scopes.find((scope) => !allowed.has(scope));
  if (widened)
    throw new OAuthError(
      'invalid_scope',
      `scope ${widened} was not granted and cannot be added on refresh`,
    );
  return scopeSet(scopes);
}

function requireEmployerAccess(scope: string): void {
  if (!hasScope(scope, 'employer_access')) {
    throw new OAuthError(
      'invalid_scope',
      'employer needs the employer_access scope to have been granted',
    );
  }
}
