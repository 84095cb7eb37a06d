import type { ValidateFunction } from 'ajv';
import type { AppRow } from '../../db/rows.js';
import type { IssuedTokens, TokenIssuer } from './token-issuer.js';

export type { IssuedTokens } from './token-issuer.js';

/**
 * One grant type of the token endpoint (DESIGN §3), as the grant registry holds it: its name,
 * how the console presents it, its request validator and the rules that issue its tokens. Adding
 * a grant is one module exporting a Grant plus its place in the registry's list (registry.ts).
 */
export interface Grant<Request = unknown> {
  /** The `grant_type` value, advertised in discovery and stored in an app's `grant_types`. */
  readonly name: string;
  /** Its short name on the console ("Authorization code"). */
  readonly label: string;
  /** What it lets an app do, shown beside its checkbox on the console. */
  readonly description: string;
  /**
   * Checks the token request's form (the generated validator of its schema in openapi.yaml), so
   * a malformed request is refused before any client authentication or database work.
   */
  readonly validate: ValidateFunction<Request>;
  /** Whether a public client (one without a secret) may use it. */
  readonly publicClients: boolean;
  /**
   * Whether the client may be authenticated from the credential cache: only for a grant whose
   * writes refuse stale cached facts (TokenIssuer.issueAppAccessToken does).
   */
  readonly cachedClient?: boolean;
  /** Issues tokens to an authenticated client allowed to use this grant, for a valid request. */
  handle(issuer: TokenIssuer, client: AppRow, request: Request): Promise<IssuedTokens>;
}
