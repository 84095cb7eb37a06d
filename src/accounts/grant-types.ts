import type { AppRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';

/*
 * Apps store the grants they allow as a space-separated `grant_types` column. Which grant types
 * exist is the token endpoint's grant registry (src/oauth/grants/registry.ts); the composition
 * root hands its names in (`known`), in the order they are shown and stored.
 */

/**
 * The built-in grants' names, for the console's forms until they read the grant registry.
 * @deprecated transitional: the console moves to the registry's choices next.
 */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
/** @deprecated transitional, with GRANT_TYPES. */
export type GrantType = (typeof GRANT_TYPES)[number];

/** The grants an app allows, read from its `grant_types` column, in the order of `known`. */
export function allowedGrantTypes(app: Pick<AppRow, 'grant_types'>): GrantType[];
export function allowedGrantTypes(
  app: Pick<AppRow, 'grant_types'>,
  known: readonly string[],
): string[];
export function allowedGrantTypes(
  app: Pick<AppRow, 'grant_types'>,
  known: readonly string[] = GRANT_TYPES,
): string[] {
  const stored = new Set(app.grant_types.split(' '));
  return known.filter((grant) => stored.has(grant));
}

export function allowsGrant(app: Pick<AppRow, 'grant_types'>, grant: string): boolean {
  return app.grant_types.split(' ').includes(grant);
}

/**
 * Checks a chosen set of grants and returns it in stored form: known names only, at least one,
 * duplicates dropped, in the order of `known`.
 */
export function normalizeGrantTypes(chosen: readonly string[], known: readonly string[]): string {
  const unknown = chosen.find((grant) => !known.includes(grant));
  if (unknown !== undefined) {
    throw new ValidationError(`${JSON.stringify(unknown)} is not a grant type`, 'grant_types');
  }
  const picked = known.filter((grant) => chosen.includes(grant));
  if (!picked.length) throw new ValidationError('choose at least one grant type', 'grant_types');
  return picked.join(' ');
}
