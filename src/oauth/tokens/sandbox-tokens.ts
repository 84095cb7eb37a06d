import { randomUUID } from 'node:crypto';
import { validateClientId, validateEmployerId } from '../../../generated/validators.cjs';
import type { AccountStore } from '../../accounts/account-store.js';
import type { AppStore } from '../../accounts/app-store.js';
import { allowsGrant } from '../../accounts/grant-types.js';
import type { AuditEntry, AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../clock.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import type { AppRow, UserRow } from '../../db/rows.js';
import { DomainError, NotFoundError, ValidationError } from '../../errors.js';
import { randomToken } from '../../security/random.js';
import type { ConsentStore } from '../authorize/consent-store.js';
import { issuedEntry, type IssuedTokens, type TokenIssuer } from '../grants/token-issuer.js';
import { OAuthError } from '../oauth-error.js';
import { hasScope, parseScope, scopeSet } from '../scopes.js';
import type { SigningKeys } from '../signing-keys/signing-keys.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './lifetimes.js';
import type { TokenStore } from './token-store.js';

/**
 * The scopes of a sandbox token when none are asked for: what the published sample apps request
 * on their consent page (identity, email, an employer token). offline_access is added only for
 * an app that allows the refresh_token grant, since it could not use the refresh token otherwise.
 */
export const SANDBOX_DEFAULT_SCOPES = ['openid', 'email', 'employer_access'] as const;

/** How the audit trail tells a sandbox issue from a consent given on the authorization pages. */
const SANDBOX_MARK = { sandbox: true, via: 'cli token issue' } as const;

export interface SandboxTokenRequest {
  /** The app's client_id. */
  clientId: string;
  /** The user the tokens act for, as if they had consented (sign-in email, any letter case). */
  userEmail: string;
  /** An employer the user belongs to, for an employer-scoped access token. */
  employerId?: string;
  /** Space-separated scopes; SANDBOX_DEFAULT_SCOPES (plus offline_access) when left out. */
  scope?: string;
}

/**
 * Sandbox tokens are refused on this deployment (a production one without
 * CLI_SANDBOX_TOKENS=enabled); the message says whose setting refuses them.
 */
export class SandboxTokensDisabled extends DomainError {}

/**
 * Tokens for a partner's automated tests, issued without a browser: the token response an
 * authorization-code exchange would give had the user consented to the app (and picked the
 * employer). They are real tokens, signed and recorded as the token endpoint records them: the
 * access token's jti, a refresh-token family that rotates and is revoked on reuse, an ID token
 * with the user's claims. The consent is remembered as the consent page remembers it, and the
 * consent, the tokens and both audit entries commit in one transaction, or nothing does.
 */
export class SandboxTokens {
  constructor(
    private readonly deps: {
      /**
       * Why this deployment issues none (src/deployment/cli-deployment.ts: a production server
       * or shell without CLI_SANDBOX_TOKENS=enabled); null when it does.
       */
      refusal: string | null;
      issuer: TokenIssuer;
      signingKeys: SigningKeys;
      apps: AppStore;
      accounts: AccountStore;
      consents: ConsentStore;
      tokens: TokenStore;
      audit: AuditLog;
      clock: Clock;
    },
  ) {}

  async issue(request: SandboxTokenRequest): Promise<IssuedTokens> {
    if (this.deps.refusal !== null) throw new SandboxTokensDisabled(this.deps.refusal);
    const app = await this.findApp(request.clientId);
    const user = await this.deps.accounts.findUserByEmail(request.userEmail);
    if (!user) throw new NotFoundError(`no user signs in with ${request.userEmail}`, 'user');
    const scope = sandboxScope(app, request.scope);
    const employerId = await this.employerOf(user, scope, request.employerId);

    await this.deps.signingKeys.ensureActiveKeys();
    const { issuer } = this.deps;
    const now = this.deps.clock.now();
    const access = await issuer.signUserAccessToken(app, user, scope, employerId);
    const idToken = await issuer.idToken(app, user, scope, now, null);
    const refresh = hasScope(scope, 'offline_access')
      ? { familyId: randomUUID(), token: randomToken(32) }
      : undefined;

    const consentEntry: AuditEntry = {
      type: 'consent.granted',
      actorUserId: user.id,
      appId: app.id,
      details: { scope, ...SANDBOX_MARK },
    };
    const issued = issuedEntry(app, user.id, 'authorization_code', scope, employerId);
    const issuedEntryMarked = { ...issued, details: { ...issued.details, ...SANDBOX_MARK } };
    try {
      await this.deps.consents.inTransaction(async (consents, tx) => {
        await consents.remember({
          id: randomUUID(),
          user_id: user.id,
          app_id: app.id,
          scope_set: scope,
          granted_at: now,
        });
        await this.deps.audit.record(consentEntry, tx);
        const tokens = this.deps.tokens.on(tx);
        if (refresh) {
          await tokens.insertFamily({
            id: refresh.familyId,
            app_id: app.id,
            user_id: user.id,
            scope,
            auth_code_hash: null,
            auth_time: now,
            created_at: now,
            revoked_at: null,
            revoked_reason: null,
          });
          await tokens.insertRefreshToken(
            issuer.refreshRow(refresh.token, refresh.familyId, employerId),
          );
        }
        await tokens.insertAccessToken({
          ...access.record,
          refresh_family_id: refresh?.familyId ?? null,
        });
        await this.deps.audit.record(issuedEntryMarked, tx);
      });
    } catch (error) {
      // The app, the user or the membership was deleted a moment ago.
      if (isForeignKeyViolation(error)) {
        throw new NotFoundError('the app or the user was deleted while the tokens were issued');
      }
      throw error;
    }
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope,
      id_token: idToken,
      ...(refresh && { refresh_token: refresh.token }),
    };
  }

  private async findApp(clientId: string): Promise<AppRow> {
    // An id no app can have is not looked up.
    const app = validateClientId(clientId) && (await this.deps.apps.findByClientId(clientId));
    if (!app) throw new NotFoundError(`no app has client_id ${clientId}`, 'app');
    if (!allowsGrant(app, 'authorization_code')) {
      throw new ValidationError(
        `app ${clientId} does not allow the authorization_code grant, so no user can grant it ` +
          'tokens; allow that grant on the console first',
        'app',
      );
    }
    return app;
  }

  /** The employer of an employer-scoped token: the employer-selection page's rule. */
  private async employerOf(
    user: UserRow,
    scope: string,
    employerId: string | undefined,
  ): Promise<string | null> {
    if (employerId === undefined) return null;
    const employer =
      validateEmployerId(employerId) && (await this.deps.accounts.findEmployerById(employerId));
    if (!employer) throw new NotFoundError(`no employer has id ${employerId}`, 'employer');
    if (!hasScope(scope, 'employer_access')) {
      throw new ValidationError('--employer needs the employer_access scope', 'scope');
    }
    if (!(await this.deps.accounts.findMembership(user.id, employerId))) {
      throw new ValidationError(
        `${user.email} is not a member of employer ${employerId}`,
        'employer',
      );
    }
    return employerId;
  }
}

/**
 * The scopes the user consents to: the server's scopes only, at least one, and offline_access
 * only for an app that may use the refresh_token grant (the token endpoint would issue the
 * refresh token, and then refuse it as unauthorized_client).
 */
function sandboxScope(app: AppRow, requested: string | undefined): string {
  const refreshable = allowsGrant(app, 'refresh_token');
  if (requested === undefined) {
    return scopeSet([...SANDBOX_DEFAULT_SCOPES, ...(refreshable ? ['offline_access'] : [])]);
  }
  let scopes: string[];
  try {
    scopes = parseScope(requested.replace(/[\s,]+/g, ' '));
  } catch (error) {
    if (error instanceof OAuthError) throw new ValidationError(error.description, 'scope');
    throw error;
  }
  if (scopes.length === 0) throw new ValidationError('--scope must name at least one scope');
  if (scopes.includes('offline_access') && !refreshable) {
    throw new ValidationError(
      `app ${app.client_id} does not allow the refresh_token grant, so offline_access would ` +
        'give a refresh token it cannot use; leave offline_access out or allow that grant',
      'scope',
    );
  }
  return scopeSet(scopes);
}
