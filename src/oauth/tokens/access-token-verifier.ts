import {
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import type { Clock } from '../../clock.js';
import type { AccessTokenRow } from '../../db/rows.js';
import type { Principal } from '../principal.js';
import type { SigningKeys } from '../signing-keys/signing-keys.js';
import { instant, isRefusal, quoted, refusal, type BearerRefusal } from './bearer-refusal.js';
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

/** The algorithm of access tokens, and of ID tokens (which callers send by mistake). */
const ACCESS_TOKEN_ALG = 'ES256';
const ID_TOKEN_ALG = 'RS256';

/**
 * Verifies bearer access tokens for every protected endpoint: ES256 signature by a key of ours
 * (by `kid`), issuer, audience, expiry, type, and then the token's record — so a revoked token
 * stops working at once. A refused token comes with the reason (BearerRefusal), which the
 * endpoints answer and log. Positive results may be reused for a short time; any revocation in
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

  /** The principal of a valid, unrevoked, unexpired access token; else why it is refused. */
  async authenticate(token: string): Promise<Principal | BearerRefusal> {
    const now = this.clock.now();
    const cached = this.cache.get(token);
    if (cached && cached.until > now) return cached.principal;

    const payload = await this.verifySignature(token);
    if (isRefusal(payload)) return payload;
    const record = liveRecord(await this.tokens.findAccessToken(payload.jti), now);
    if (isRefusal(record)) return record;

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

  /**
   * Checks type, algorithm, signature, issuer, expiry and audience: the verified claims, or the
   * first of them that fails, said for the caller.
   */
  private async verifySignature(token: string): Promise<AccessTokenPayload | BearerRefusal> {
    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return refusal(
        'malformed',
        'The access token is malformed: not a JWT (send the access_token of a token response)',
      );
    }
    const misfit = headerRefusal(header);
    if (misfit) return misfit;
    const kid = String(header.kid);
    const key = await this.keys.verificationKey(kid, ACCESS_TOKEN_ALG);
    if (!key) {
      return refusal(
        'unknown_key',
        `The access token is signed with a key this server does not know (kid ${quoted(kid)}): ` +
          "another server's key, or one retired since",
      );
    }
    let payload: AccessTokenPayload;
    try {
      ({ payload } = await jwtVerify<AccessTokenPayload>(token, key, {
        algorithms: [ACCESS_TOKEN_ALG],
        issuer: this.issuer,
        typ: ACCESS_TOKEN_TYPE,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['jti', 'sub', 'exp', 'iat', 'azp'],
      }));
    } catch (error) {
      return this.claimRefusal(error);
    }
    if (!this.isForThisApi(payload)) {
      return refusal(
        'wrong_audience',
        `The access token is for ${quoted(payload.aud ?? 'no audience')}, not for this API (${this.audience})`,
      );
    }
    return payload;
  }

  /** What jose's verification failure means for the caller. */
  private claimRefusal(error: unknown): BearerRefusal {
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      return refusal(
        'bad_signature',
        "The access token's signature does not verify: it was altered after it was issued",
      );
    }
    if (error instanceof errors.JWTExpired) {
      return refusal('expired', `The access token expired at ${instant(error.payload.exp)}`);
    }
    if (error instanceof errors.JWTClaimValidationFailed) {
      const { claim, reason, payload } = error;
      if (reason === 'missing') {
        return refusal('malformed', `The access token is malformed: it has no ${claim} claim`);
      }
      if (claim === 'iss') {
        return refusal(
          'wrong_issuer',
          `The access token was issued by ${quoted(payload.iss)}, not by this server (${this.issuer})`,
        );
      }
      if (claim === 'nbf' || claim === 'iat') {
        return refusal(
          'not_yet_valid',
          `The access token is not valid yet: its ${claim} is ${instant(payload[claim])}`,
        );
      }
    }
    return refusal('malformed', 'The access token is malformed: its claims are not a valid JWT');
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
    if (isRefusal(payload)) return null;
    const record = liveRecord(await this.tokens.findAccessToken(payload.jti), this.clock.now());
    return isRefusal(record) ? null : { payload, record };
  }

  /** Drops every cached result; called whenever this process revokes tokens. */
  forgetAll(): void {
    this.cache.clear();
  }
}

/**
 * A header that no access token of ours has: an ID token sent instead of the access token, an
 * unexpected `typ` or algorithm, no `kid`. Said before any key is looked up.
 */
function headerRefusal(header: ProtectedHeaderParameters): BearerRefusal | undefined {
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase() : undefined;
  if (typ !== ACCESS_TOKEN_TYPE && typ !== `application/${ACCESS_TOKEN_TYPE}`) {
    if (header.alg === ID_TOKEN_ALG) {
      return refusal(
        'id_token',
        `The bearer token is an ID token (${ID_TOKEN_ALG}, typ ${quoted(header.typ ?? 'none')}), ` +
          'not an access token: send the access_token of the token response, not its id_token',
      );
    }
    return refusal(
      'wrong_type',
      `The access token has ${header.typ === undefined ? 'no typ' : `typ ${quoted(header.typ)}`}, ` +
        `not ${ACCESS_TOKEN_TYPE}: it is not an access token of this server`,
    );
  }
  if (header.alg !== ACCESS_TOKEN_ALG) {
    return refusal(
      'wrong_algorithm',
      `The access token is signed with ${quoted(header.alg ?? 'no algorithm')}; ` +
        `access tokens of this server are ${ACCESS_TOKEN_ALG}`,
    );
  }
  if (typeof header.kid !== 'string') {
    return refusal('malformed', 'The access token is malformed: its header has no kid');
  }
  return undefined;
}

/** The record of a token whose signature verified, or why the record refuses it. */
function liveRecord(
  record: AccessTokenRow | undefined,
  now: number,
): AccessTokenRow | BearerRefusal {
  if (!record) {
    return refusal(
      'unknown_token',
      'The access token is signed by this server, but this server has no record of it',
    );
  }
  if (record.revoked_at !== null) {
    return refusal(
      'revoked',
      `The access token was revoked at ${instant(record.revoked_at, 'ms')}`,
    );
  }
  if (record.expires_at <= now) {
    return refusal('expired', `The access token expired at ${instant(record.expires_at, 'ms')}`);
  }
  return record;
}
