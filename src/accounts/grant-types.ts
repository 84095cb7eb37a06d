import type { AppRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';

/** The grants the token endpoint knows, in the order they are shown and stored. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** What an app may use when nobody chose otherwise: every grant. */
export const DEFAULT_GRANT_TYPES = GRANT_TYPES.join(' ');

/** The grants an app allows, read from its space-separated `grant_types` column. */
export function allowedGrantTypes(app: Pick<AppRow, 'grant_types'>): GrantType[] {
  const stored = new Set(app.grant_types.split(' '));
  return GRANT_TYPES.filter((grant) => stored.has(grant));
}

export function allowsGrant(app: Pick<AppRow, 'grant_types'>, grant: string): boolean {
  return app.grant_types.split(' ').includes(grant);
}

/**
 * Checks a chosen set of grants and returns it in stored form: known names only, at least one,
 * duplicates dropped, in the canonical order.
 */
export function normalizeGrantTypes(chosen: readonly string[]): string {
  const unknown = chosen.find((grant) => !(GRANT_TYPES as readonly string[]).includes(grant));
  if (unknown !== undefined) {
    throw new ValidationError(`${JSON.stringify(unknown)} is not a grant type`, 'grant_types');
  }
  const picked = GRANT_TYPES.filter((grant) => chosen.includes(grant));
  if (!picked.length) throw new ValidationError('choose at least one grant type', 'grant_types');
  return picked.join(' ');
}
