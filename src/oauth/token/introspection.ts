import type { components } from '../../../generated/openapi.js';
import type { Clock } from '../../clock.js';
import type { AppRow } from '../../db/rows.js';
import { sha256Hex } from '../../security/random.js';
import type { AccessTokenVerifier } from '../tokens/access-token-verifier.js';
import type { TokenStore } from '../tokens/token-store.js';

export type IntrospectionResult = components['schemas']['IntrospectionResponse'];

/**
 * RFC 7662 introspection for the client the token was issued to. Any other token — foreign,
 * expired, revoked, malformed — is just `{ active: false }`.
 */
export class TokenIntrospection {
  constructor(
    private readonly tokens: TokenStore,
    private readonly verifier: AccessTokenVerifier,
    private readonly clock: Clock,
    private readonly issuer: string,
  ) {}

  async introspect(
    client: AppRow,
    token: string,
    hint: string | undefined,
  ): Promise<IntrospectionResult> {
    const order =
      hint === 'refresh_token' ? [this.refresh, this.access] : [this.access, this.refresh];
    for (const attempt of order) {
      const result = await attempt.call(this, client, token);
      if (result) return result;
    }
    return { active: false };
  }

  private async access(client: AppRow, token: string): Promise<IntrospectionResult | undefined> {
    const inspected = await this.verifier.inspect(token);
    if (!inspected || inspected.record.app_id !== client.id) return undefined;
    const { payload, record } = inspected;
    return {
      active: true,
      scope: record.scope,
      client_id: client.client_id,
      token_type: 'Bearer',
      exp: Math.floor(record.expires_at / 1000),
      iat: Math.floor(record.issued_at / 1000),
      sub: payload.sub,
      iss: this.issuer,
      jti: record.jti,
      ...(payload.aud !== undefined && { aud: payload.aud }),
      ...(record.employer_id && { employer: record.employer_id }),
    };
  }

  private async refresh(client: AppRow, token: string): Promise<IntrospectionResult | undefined> {
    const tokenHash = sha256Hex(token);
    const row = await this.tokens.findRefreshToken(tokenHash);
    const family = row && (await this.tokens.findFamily(row.family_id));
    if (!row || !family || family.app_id !== client.id) return undefined;
    if (
      row.consumed_at !== null ||
      family.revoked_at !== null ||
      row.expires_at <= this.clock.now()
    ) {
      return undefined;
    }
    return {
      active: true,
      scope: family.scope,
      client_id: client.client_id,
      token_type: 'refresh_token',
      exp: Math.floor(row.expires_at / 1000),
      iat: Math.floor(row.issued_at / 1000),
      sub: `user:${family.user_id}`,
      iss: this.issuer,
      // A refresh token has no id of its own; its digest names it without revealing it.
      jti: tokenHash,
      ...(row.employer_id && { employer: row.employer_id }),
    };
  }
}
