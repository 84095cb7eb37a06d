import type { components } from '../../../generated/openapi.js';
import { validateRefreshTokenGrant } from '../../../generated/validators.cjs';
import { randomToken, sha256Hex } from '../../security/random.js';
import { OAuthError } from '../oauth-error.js';
import { parseScope, scopeSet } from '../scopes.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../tokens/lifetimes.js';
import type { Grant } from './grant.js';
import { issuedEntry } from './token-issuer.js';

export type RefreshTokenGrant = components['schemas']['RefreshTokenGrantRequest'];

/**
 * The refresh token grant: a refresh token is exchanged for new tokens and a new refresh token
 * of the same family (rotation); a consumed one presented again revokes the whole family.
 */
export const refreshTokenGrant: Grant<RefreshTokenGrant> = {
  name: 'refresh_token',
  label: 'Refresh token',
  description: 'keep access without asking users to sign in again',
  validate: validateRefreshTokenGrant,
  publicClients: true,

  async handle(issuer, client, request) {
    const { tokens, clock } = issuer;
    const tokenHash = sha256Hex(request.refresh_token);
    // The presenting client is checked before anything is consumed, so a token presented by
    // the wrong client leaves the rightful client's session intact.
    const family = await tokens.findFamilyOfRefreshToken(tokenHash);
    if (!family || family.app_id !== client.id) {
      throw new OAuthError('invalid_grant', 'refresh_token is invalid');
    }
    const scope = narrowedScope(family.scope, request.scope);
    const { user, employers } = await issuer.requireUserWithEmployers(family.user_id);
    const employerId = await issuer.employerForUser(user.id, scope, request.employer, employers);

    const next = randomToken(32);
    const access = await issuer.signUserAccessToken(client, user, scope, employerId);
    const idToken = await issuer.idToken(
      client,
      user,
      family.scope,
      family.auth_time,
      null,
      employers,
    );
    const entry = issuedEntry(client, user.id, 'refresh_token', scope, employerId);
    // Consumption, rotation and the audit row in one transaction: of two concurrent refreshes
    // with one token exactly one consumes it, and nothing of a refused one is stored.
    const { outcome } = await issuer.storing(() =>
      issuer.rotateRefreshToken(
        family.id,
        tokenHash,
        {
          refreshToken: issuer.refreshRow(next, family.id, employerId),
          accessToken: { ...access.record, refresh_family_id: family.id },
        },
        entry,
      ),
    );

    if (outcome === 'reused') {
      throw await issuer.revokeAfterReplay(
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
    issuer.announceIssued(entry);
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope,
      refresh_token: next,
      id_token: idToken,
    };
  },
};

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
