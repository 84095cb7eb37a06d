import type { AppRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';

/*
 * Apps store the grants they allow as a space-separated `grant_types` column. Which grant types
 * exist is the token endpoint's grant registry (src/oauth/grants/registry.ts); the composition
 * root hands its names in (`known`), in the order they are shown and stored.
 */

/** Whether the app's `grant_types` column includes `grant`. */
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
