import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import { validateAuthorizationCodeGrant } from '../../../generated/validators.cjs';
import type { AuditEntry } from '../../audit/audit-log.js';
import type { AppRow, AuthorizationCodeRow, UserRow } from '../../db/rows.js';
import { randomToken } from '../../security/random.js';
import { OAuthError } from '../oauth-error.js';
import { hasScope } from '../scopes.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../tokens/lifetimes.js';
import type { TokenStore } from '../tokens/token-store.js';
import type { Grant } from './grant.js';
import { issuedEntry, type SignedAccessToken, type TokenIssuer } from './token-issuer.js';

export type AuthorizationCodeGrant = components['schemas']['AuthorizationCodeGrantRequest'];

/** What an authorization code yields once its checks pass: signed, not yet stored. */
interface CodeTokens {
  user: UserRow;
  employerId: string | null;
  refresh: { familyId: string; token: string } | undefined;
  access: SignedAccessToken;
  idToken: string;
}

/**
 * The authorization code grant: a code from the authorization endpoint, bound to its client,
 * redirect_uri and PKCE challenge, exchanged once for an access token, an ID token and, with
 * offline_access, a refresh token.
 */
export const authorizationCodeGrant: Grant<AuthorizationCodeGrant> = {
  name: 'authorization_code',
  label: 'Authorization code',
  description: 'users sign in and allow the app access',
  validate: validateAuthorizationCodeGrant,
  publicClients: true,

  /**
   * Exchanges a code. The code is consumed in the same transaction that stores its tokens, so
   * of concurrent exchanges exactly one stores anything, and every other one, a replay, finds
   * those tokens and revokes them.
   */
  async handle(issuer, client, request) {
    const { codes } = issuer;
    const code = await codes.find(request.code);
    if (!code) throw new OAuthError('invalid_grant', 'code is invalid or expired');
    if (code.consumed_at !== null) throw await codeReplayed(issuer, code, client);
    let prepared: CodeTokens;
    try {
      prepared = await prepareCodeTokens(issuer, client, code, request);
    } catch (error) {
      // A code presented wrongly is spent all the same; one that met a busy database (503,
      // Retry-After) or a fault of ours is not, so that the client's retry can still use it.
      if (!(error instanceof OAuthError)) throw error;
      if ((await codes.consume(request.code)).outcome === 'replayed') {
        throw await codeReplayed(issuer, code, client);
      }
      throw error;
    }
    const entry = issuedEntry(
      client,
      prepared.user.id,
      'authorization_code',
      code.scope,
      prepared.employerId,
    );
    const redeemed = await issuer.storing(() =>
      codes.redeem(request.code, (tx) =>
        storeCodeTokens(issuer, issuer.tokens.on(tx), client, code, prepared, entry),
      ),
    );
    // A concurrent exchange of the same code stored its tokens first: this one is a replay.
    if (!redeemed) throw await codeReplayed(issuer, code, client);

    const { refresh, access, idToken } = prepared;
    issuer.announceIssued(entry);
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: code.scope,
      id_token: idToken,
      ...(refresh && { refresh_token: refresh.token }),
    };
  },
};

/** Checks the code's bindings, user and employer, and signs its tokens; stores nothing. */
async function prepareCodeTokens(
  issuer: TokenIssuer,
  client: AppRow,
  code: AuthorizationCodeRow,
  request: AuthorizationCodeGrant,
): Promise<CodeTokens> {
  checkCodeBinding(code, client, request, issuer.clock.now());
  const user = await issuer.requireUser(code.user_id);
  const employerId = await issuer.employerForUser(user.id, code.scope, request.employer);
  const refresh = hasScope(code.scope, 'offline_access')
    ? { familyId: randomUUID(), token: randomToken(32) }
    : undefined;
  const access = await issuer.signUserAccessToken(client, user, code.scope, employerId);
  const idToken = await issuer.idToken(client, user, code.scope, code.auth_time, code.nonce);
  return { user, employerId, refresh, access, idToken };
}

/** The code's tokens, refresh family and audit row, in the transaction that consumed the code. */
function storeCodeTokens(
  issuer: TokenIssuer,
  store: TokenStore,
  client: AppRow,
  code: AuthorizationCodeRow,
  { user, employerId, refresh, access }: CodeTokens,
  entry: AuditEntry,
): Promise<void> {
  const now = issuer.clock.now();
  return issuer.storeIssued(
    store,
    {
      ...(refresh && {
        family: {
          id: refresh.familyId,
          app_id: client.id,
          user_id: user.id,
          scope: code.scope,
          auth_code_hash: code.code_hash,
          auth_time: code.auth_time,
          created_at: now,
          revoked_at: null,
          revoked_reason: null,
        },
        refreshToken: issuer.refreshRow(refresh.token, refresh.familyId, employerId),
      }),
      accessToken: {
        ...access.record,
        auth_code_hash: code.code_hash,
        refresh_family_id: refresh?.familyId ?? null,
      },
    },
    entry,
  );
}

function codeReplayed(
  issuer: TokenIssuer,
  code: AuthorizationCodeRow,
  client: AppRow,
): Promise<OAuthError> {
  return issuer.revokeAfterReplay(
    () =>
      issuer.tokens.inTransaction((store) =>
        store.revokeIssuedFromCode(code.code_hash, 'code_replay', issuer.clock.now()),
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
