import type { Clock } from '../../clock.js';
import type { AccessTokenRow } from '../../db/rows.js';
import type { Principal } from '../principal.js';
import type { SigningKeys } from '../signing-keys/signing-keys.js';
import { instant, isRefusal, quoted, refusal, type BearerRefusal } from './bearer-refusal.js';
import { decodeJsonObject, parseCompact, verifiesWith, type ParsedJws } from './compact-jws.js';
import type { RevocationNotices } from './revocation-notices.js';
import { ACCESS_TOKEN_TYPE } from './token-signer.js';
import type { TokenStore } from './token-store.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

export interface AccessTokenPayload {
  iss: string;
  sub: string;
  azp: string;
  client_id?: string;
  aud?: string | string[];
  scope: string;
  app_account: string;
  jti: string;
  iat: number;
  exp: number;
  nbf?: number;
  emp?: string;
}

/** What verifying an active access token found: its claims and its record. */
export interface VerifiedAccessToken {
  payload: AccessTokenPayload;
  record: AccessTokenRow;
}

type Header = Record<string, unknown>;

const MAX_CACHE_ENTRIES = 10_000;

/** The algorithm of access tokens, and of ID tokens (which callers send by mistake). */
const ACCESS_TOKEN_ALG = 'ES256';
const ID_TOKEN_ALG = 'RS256';

/** Claims every access token of ours has, in the order a missing one is named. */
const REQUIRED_CLAIMS = ['iss', 'azp', 'iat', 'exp', 'sub', 'jti'] as const;

/**
 * Verifies bearer access tokens for every protected endpoint: ES256 signature by a key of ours
 * (by `kid`), issuer, audience, expiry, type, and then the token's record — so a revoked token
 * stops working at once. A refused token comes with the reason (BearerRefusal), which the
 * endpoints answer and log. Positive results may be reused for a short time
 * (TOKEN_VERIFICATION_CACHE_MS), never past the token's expiry or its key's retirement; a
 * revocation in any process of the deployment clears them in every process (RevocationNotices).
 */
export class AccessTokenVerifier {
  private readonly cache = new VerifiedTokenCache<VerifiedAccessToken & { principal: Principal }>(
    MAX_CACHE_ENTRIES,
  );

  constructor(
    private readonly keys: SigningKeys,
    private readonly tokens: TokenStore,
    private readonly clock: Clock,
    private readonly issuer: string,
    /** This API's resource identifier (API_URL), which the token's `aud` must name. */
    private readonly audience: string,
    private readonly cacheMs: number,
    private readonly notices?: RevocationNotices,
  ) {
    notices?.subscribe(() => this.cache.clear());
  }

  /** The principal of a valid, unrevoked, unexpired access token; else why it is refused. */
  async authenticate(token: string): Promise<Principal | BearerRefusal> {
    const verified = await this.verify(token);
    return isRefusal(verified) ? verified : verified.principal;
  }

  /** The verified claims and record of an active access token, for introspection. */
  async inspect(token: string): Promise<VerifiedAccessToken | null> {
    const verified = await this.verify(token);
    return isRefusal(verified) ? null : verified;
  }

  /**
   * Drops every cached result, in this process at once and in the others as soon as the notice
   * reaches them; called whenever tokens are revoked. Resolves once the notice has left.
   */
  async forgetAll(): Promise<void> {
    this.cache.clear();
    await this.notices?.announce();
  }

  private async verify(
    token: string,
  ): Promise<(VerifiedAccessToken & { principal: Principal }) | BearerRefusal> {
    const now = this.clock.now();
    const cached = this.cache.get(token, now);
    if (cached) return cached;

    const checked = await this.verifySignature(token);
    if (isRefusal(checked)) return checked;
    const { payload, retiresAt } = checked;
    const found = await this.tokens.findAccessTokenWithAccountsEpoch(payload.jti);
    const record = liveRecord(found?.record, now);
    if (isRefusal(record)) return record;

    const principal = { ...principalOf(payload, record), accountsEpoch: found!.accountsEpoch };
    const verified = { payload, record, principal };
    if (this.cacheMs > 0) {
      const until = Math.min(now + this.cacheMs, record.expires_at, retiresAt ?? Infinity);
      this.cache.set(token, verified, until);
    }
    return verified;
  }

  /**
   * Checks type, algorithm, signature, issuer, expiry and audience: the verified claims (and
   * when the key that signed them retires), or the first of them that fails, said for the caller.
   */
  private async verifySignature(
    token: string,
  ): Promise<{ payload: AccessTokenPayload; retiresAt: number | null } | BearerRefusal> {
    const jws = parseCompact(token);
    if (!jws) {
      return refusal(
        'malformed',
        'The access token is malformed: not a JWT (send the access_token of a token response)',
      );
    }
    const misfit = headerRefusal(jws.header);
    if (misfit) return misfit;
    const kid = jws.header.kid as string;
    const key = await this.keys.verificationKey(kid, ACCESS_TOKEN_ALG);
    if (!key) {
      return refusal(
        'unknown_key',
        `The access token is signed with a key this server does not know (kid ${quoted(kid)}): ` +
          "another server's key, or one retired since",
      );
    }
    if (jws.header.crit !== undefined) return notAValidJwt();
    if (!verifiesWith(ACCESS_TOKEN_ALG, key.key, jws)) {
      return refusal(
        'bad_signature',
        "The access token's signature does not verify: it was altered after it was issued",
      );
    }
    const payload = this.claimsOf(jws);
    if (isRefusal(payload)) return payload;
    if (!this.isForThisApi(payload)) {
      return refusal(
        'wrong_audience',
        `The access token is for ${quoted(payload.aud ?? 'no audience')}, not for this API (${this.audience})`,
      );
    }
    return { payload, retiresAt: key.retiresAt };
  }

  /** The claims of a JWT whose signature verified, checked as RFC 7519 asks, or why not. */
  private claimsOf(jws: ParsedJws): AccessTokenPayload | BearerRefusal {
    const claims = decodeJsonObject(jws.payloadPart);
    if (!claims) return notAValidJwt();
    for (const claim of REQUIRED_CLAIMS) {
      if (!Object.hasOwn(claims, claim)) {
        return refusal('malformed', `The access token is malformed: it has no ${claim} claim`);
      }
    }
    if (claims.iss !== this.issuer) {
      return refusal(
        'wrong_issuer',
        `The access token was issued by ${quoted(claims.iss)}, not by this server (${this.issuer})`,
      );
    }
    const now = Math.floor(this.clock.now() / 1000);
    for (const claim of ['iat', 'nbf'] as const) {
      const value = claims[claim];
      if (value === undefined) continue;
      if (typeof value !== 'number' || (claim === 'nbf' && value > now)) {
        return refusal(
          'not_yet_valid',
          `The access token is not valid yet: its ${claim} is ${instant(value)}`,
        );
      }
    }
    if (typeof claims.exp !== 'number') return notAValidJwt();
    if (claims.exp <= now) {
      return refusal('expired', `The access token expired at ${instant(claims.exp)}`);
    }
    return claims as unknown as AccessTokenPayload;
  }

  /**
   * Tokens signed before access tokens carried RFC 9068's `aud` and `client_id` have neither;
   * they are accepted until they expire, so an upgrade (even a rolling one, where processes of
   * the previous release still issue them) logs nobody out. Any token with an `aud` must name
   * this API. Once every process runs this release for an hour, the allowance can go.
   */
  private isForThisApi(payload: AccessTokenPayload): boolean {
    if (payload.aud === undefined) return payload.client_id === undefined;
    const audiences: unknown[] = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    return audiences.includes(this.audience);
  }
}

function notAValidJwt(): BearerRefusal {
  return refusal('malformed', 'The access token is malformed: its claims are not a valid JWT');
}

function principalOf(payload: AccessTokenPayload, record: AccessTokenRow): Principal {
  const scopes = payload.scope ? payload.scope.split(' ') : [];
  return record.user_id
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
}

/**
 * A header that no access token of ours has: an ID token sent instead of the access token, an
 * unexpected `typ` or algorithm, no `kid`. Said before any key is looked up.
 */
function headerRefusal(header: Header): BearerRefusal | undefined {
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
