import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { SigningKeys } from '../signing-keys/signing-keys.js';
import { signCompact } from './compact-jws.js';
import { ACCESS_TOKEN_TTL_SECONDS, ID_TOKEN_TTL_SECONDS } from './lifetimes.js';

/** JWT `typ` of access tokens (RFC 9068), which keeps them apart from ID tokens. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

export interface AccessTokenClaims {
  /** `user:<user id>` for the authorization code grant, `app:<client id>` for client credentials. */
  sub: string;
  /** The client id; the token also carries it as RFC 9068's `client_id`. */
  azp: string;
  scope: string;
  app_account: string;
  emp?: string;
}

export interface IdTokenClaims {
  sub: string;
  aud: string;
  auth_time: number;
  nonce?: string;
  email?: string;
  email_verified?: boolean;
  employers?: Array<{ id: string; name: string }>;
}

export interface SignedAccessToken {
  token: string;
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

/** Signs access tokens (ES256) and ID tokens (RS256) with the current keys, `kid` in the header. */
export class TokenSigner {
  /**
   * @param audience the API's resource identifier (API_URL), the `aud` of every access token
   *   as RFC 9068 requires of an `at+jwt`.
   */
  constructor(
    private readonly keys: SigningKeys,
    private readonly clock: Clock,
    private readonly issuer: string,
    private readonly audience: string,
  ) {}

  async accessToken(
    claims: AccessTokenClaims,
    lifetimeSeconds = ACCESS_TOKEN_TTL_SECONDS,
  ): Promise<SignedAccessToken> {
    const signer = await this.keys.signer('ES256');
    const iat = Math.floor(this.clock.now() / 1000);
    const jti = randomUUID();
    const token = signCompact(
      signer.alg,
      signer.key,
      { alg: signer.alg, kid: signer.kid, typ: ACCESS_TOKEN_TYPE },
      {
        ...claims,
        client_id: claims.azp,
        iss: this.issuer,
        aud: this.audience,
        iat,
        exp: iat + lifetimeSeconds,
        jti,
      },
    );
    return { token, jti, issuedAt: iat * 1000, expiresAt: (iat + lifetimeSeconds) * 1000 };
  }

  async idToken(claims: IdTokenClaims): Promise<string> {
    const signer = await this.keys.signer('RS256');
    const iat = Math.floor(this.clock.now() / 1000);
    return signCompact(
      signer.alg,
      signer.key,
      { alg: signer.alg, kid: signer.kid, typ: 'JWT' },
      { ...claims, azp: claims.aud, iss: this.issuer, iat, exp: iat + ID_TOKEN_TTL_SECONDS },
    );
  }
}
