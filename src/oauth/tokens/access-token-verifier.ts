import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../clock.js';
import type { AccessTokenRow } from '../../db/rows.js';
import type { Principal } from '../principal.js';
import type { SigningKeys } from '../signing-keys/signing-keys.js';
import { ACCESS_TOKEN_TYPE } from './token-signer.js';
import type { TokenStore } from './token-store.js';

export interface AccessTokenPayload extends JWTPayload {
  sub: string;
  azp: string;
  client_id?: string;
  scope: string;
  app_account: string;
  jti: string;
  emp?: string;
}

const MAX_CACHE_ENTRIES = 10_000;

/**
 * Verifies bearer access tokens for every protected endpoint: ES256 signature by a key of ours
 * (by `kid`), issuer, audience, expiry, type, and then the token's record — so a revoked token
 * stops working at once. Positive results may be reused for a short time; any revocation in
 * this process clears them immediately.
 */
export class AccessTokenVerifier {
  private readonly cache = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly keys: SigningKeys,
    private readonly tokens: TokenStore,
    private readonly clock: Clock,
    private readonly issuer: string,
    /** This API's resource identifier (API_URL), which the token's `aud` must name. */
    private readonly audience: string,
    private readonly cacheMs: number,
  ) {}

  /** The principal of a valid, unrevoked, unexpired access token; null for anything else. */
  async verify(token: string): Promise<Principal | null> {
    const now = this.clock.now();
    const cached = this.cache.get(token);
    if (cached && cached.until > now) return cached.principal;

    const payload = await this.verifySignature(token);
    if (!payload) return null;
    const record = await this.tokens.findAccessToken(payload.jti);
    if (!record || record.revoked_at !== null || record.expires_at <= now) return null;

    const scopes = payload.scope ? payload.scope.split(' ') : [];
    const principal: Principal = record.user_id
      ? {
          kind: 'user',
          userId: record.user_id,
          appId: record.app_id,
          clientId: payload.azp,
          employerId: record.employer_id,
          scopes,
          jti: record.jti,
        }
      : {
          kind: 'app',
          appId: record.app_id,
          clientId: payload.azp,
          ownerUserId: payload.app_account,
          employerId: record.employer_id,
          scopes,
          jti: record.jti,
        };
    if (this.cacheMs > 0) {
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
      this.cache.set(token, { principal, until: Math.min(now + this.cacheMs, record.expires_at) });
    }
    return principal;
  }

  /** Checks signature, type, issuer, audience and expiry; null for any malformed or foreign token. */
  private async verifySignature(token: string): Promise<AccessTokenPayload | null> {
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== 'ES256' || typeof header.kid !== 'string') return null;
      const key = await this.keys.verificationKey(header.kid, header.alg);
      if (!key) return null;
      const { payload } = await jwtVerify<AccessTokenPayload>(token, key, {
        algorithms: ['ES256'],
        issuer: this.issuer,
        typ: ACCESS_TOKEN_TYPE,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['jti', 'sub', 'exp', 'iat', 'azp'],
      });
      return this.isForThisApi(payload) ? payload : null;
    } catch {
      return null;
    }
  }

  /**
   * Tokens signed before access tokens carried RFC 9068's `aud` and `client_id` have neither;
   * they are accepted until they expire, so an upgrade (even a rolling one, where processes of
   * the previous release still issue them) logs nobody out. Any token with an `aud` must name
   * this API. Once every process runs this release for an hour, the allowance can go.
   */
  private isForThisApi(payload: AccessTokenPayload): boolean {
    if (payload.aud === undefined) return payload.client_id === undefined;
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    return audiences.includes(this.audience);
  }

  /** The verified claims and record of an active access token, for introspection. */
  async inspect(
    token: string,
  ): Promise<{ payload: AccessTokenPayload; record: AccessTokenRow } | null> {
    const payload = await this.verifySignature(token);
    if (!payload) return null;
    const record = await this.tokens.findAccessToken(payload.jti);
    if (!record || record.revoked_at !== null || record.expires_at <= this.clock.now()) return null;
    return { payload, record };
  }

  /** Drops every cached result; called whenever this process revokes tokens. */
  forgetAll(): void {
    this.cache.clear();
  }
}
