import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../clock.js';
import type { AppRow } from '../../db/rows.js';
import { sha256Hex } from '../../security/random.js';
import type { AccessTokenVerifier } from '../tokens/access-token-verifier.js';
import { decodeJsonObject, parseCompact } from '../tokens/compact-jws.js';
import type { TokenStore } from '../tokens/token-store.js';

/**
 * RFC 7009 revocation. A client may revoke only its own tokens; anything else (unknown,
 * expired, foreign) is silently ignored, as the RFC asks, so the answer never reveals whether a
 * token exists. Revoking a refresh token revokes its whole family, access tokens included.
 */
export class TokenRevocation {
  constructor(
    private readonly tokens: TokenStore,
    private readonly verifier: AccessTokenVerifier,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** `requestId`: the revocation request's, for the audit entry. */
  async revoke(
    client: AppRow,
    token: string,
    hint: string | undefined,
    requestId: string | null = null,
  ): Promise<void> {
    const attempts =
      hint === 'refresh_token'
        ? [
            () => this.revokeRefreshToken(client, token),
            () => this.revokeAccessToken(client, token),
          ]
        : [
            () => this.revokeAccessToken(client, token),
            () => this.revokeRefreshToken(client, token),
          ];
    for (const attempt of attempts) {
      const revoked = await attempt();
      if (revoked !== undefined) {
        await this.verifier.forgetAll();
        await this.audit.record({
          type: 'token.revoked',
          appId: client.id,
          requestId,
          details: revoked,
        });
        return;
      }
    }
  }

  private async revokeAccessToken(client: AppRow, token: string) {
    const jti = jtiOf(token);
    const record = jti && (await this.tokens.findAccessToken(jti));
    if (!record || record.app_id !== client.id) return undefined;
    await this.tokens.revokeAccessToken(record.jti, this.clock.now());
    return { kind: 'access_token', jti: record.jti };
  }

  private async revokeRefreshToken(client: AppRow, token: string) {
    const row = await this.tokens.findRefreshToken(sha256Hex(token));
    const family = row && (await this.tokens.findFamily(row.family_id));
    if (!family || family.app_id !== client.id) return undefined;
    // One transaction: the family and its access tokens are revoked together or not at all.
    const accessTokens = await this.tokens.inTransaction((store) =>
      store.revokeFamily(family.id, 'revoked_by_client', this.clock.now()),
    );
    return { kind: 'refresh_token', familyId: family.id, revokedAccessTokens: accessTokens.length };
  }
}

/** The `jti` a JWT claims; its signature does not matter here, the record's client does. */
function jtiOf(token: string): string | undefined {
  const jws = parseCompact(token);
  const jti = jws && decodeJsonObject(jws.payloadPart)?.jti;
  return typeof jti === 'string' ? jti : undefined;
}
