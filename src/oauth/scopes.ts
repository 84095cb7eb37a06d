import { OAuthError } from './oauth-error.js';

/**
 * Scopes this server grants. `openid` is accepted for OpenID Connect clients and changes nothing
 * (3-legged grants always carry an ID token); `interviews.schedule` is shown on the consent page.
 */
export const SUPPORTED_SCOPES = [
  'openid',
  'email',
  'offline_access',
  'employer_access',
  'interviews.schedule',
] as const;
export type Scope = (typeof SUPPORTED_SCOPES)[number];

const SUPPORTED = new Set<string>(SUPPORTED_SCOPES);

/** Parses a space-delimited scope parameter; an unknown scope is `invalid_scope`. */
export function parseScope(value: string | undefined): Scope[] {
  const scopes = new Set<Scope>();
  for (const scope of (value ?? '').split(' ')) {
    if (!scope) continue;
    if (!SUPPORTED.has(scope)) {
      throw new OAuthError(
        'invalid_scope',
        `scope ${JSON.stringify(scope)} is not supported; use ${SUPPORTED_SCOPES.join(', ')}`,
      );
    }
    scopes.add(scope as Scope);
  }
  return [...scopes];
}

/** One spelling per scope set (sorted, space-separated), for storage and comparison. */
export function scopeSet(scopes: Iterable<string>): string {
  return [...new Set(scopes)].sort().join(' ');
}

export function hasScope(scope: string, wanted: Scope): boolean {
  return scope.split(' ').includes(wanted);
}
