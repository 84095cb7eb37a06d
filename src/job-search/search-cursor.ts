import { createHash } from 'node:crypto';
import { ValidationError } from '../errors.js';
import type { SearchSort } from './search-request.js';
import { isSortKey } from './sort-key.js';

/**
 * Where a walk over a search's results stands: the relevance tier it is in and the sort key of
 * the last posting it passed. The next page starts strictly after it, so a posting added during
 * the walk either comes later in the order (and is met once) or earlier (and is not met), and no
 * posting already passed is met again.
 */
export interface CursorPosition {
  readonly tier: number;
  readonly sortKey: number;
}

const SORT_CODES: Record<SearchSort, string> = { RELEVANCE: 'r', DATE: 'd' };

/** A search's fingerprint: a cursor only continues the search it came from. */
export function fingerprintOf(identity: string): string {
  return createHash('sha256').update(identity).digest('base64url').slice(0, 12);
}

/** The opaque cursor of a position in a search. */
export function encodeCursor(
  sort: SearchSort,
  fingerprint: string,
  position: CursorPosition,
): string {
  return Buffer.from(
    `1.${SORT_CODES[sort]}.${position.tier}.${position.sortKey}.${fingerprint}`,
  ).toString('base64url');
}

/** The position a cursor names, checked against the search it is given with. */
export function decodeCursor(
  cursor: string,
  sort: SearchSort,
  fingerprint: string,
): CursorPosition {
  const text = cursor.length <= 100 ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^1\.([rd])\.(\d)\.(\d{1,16})\.([\w-]{12})$/.exec(text);
  const sortKey = match ? Number(match[3]) : NaN;
  if (!match || !isSortKey(sortKey)) {
    throw new ValidationError('cursor is not a cursor of jobSearch', 'cursor');
  }
  if (match[1] !== SORT_CODES[sort] || match[4] !== fingerprint) {
    throw new ValidationError(
      'cursor belongs to another search: pass the same what, location, sort and filters as the ' +
        'search that returned it',
      'cursor',
    );
  }
  return { tier: Number(match[2]), sortKey };
}
