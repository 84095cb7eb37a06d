import { ValidationError } from '../errors.js';
import { KM_PER_MILE, type Point } from './geo.js';
import type { Place, Places } from './places/places.js';
import { searchWordsOf } from './title-cell-terms.js';

export type SearchSort = 'RELEVANCE' | 'DATE';
export type RadiusUnit = 'MILES' | 'KILOMETERS';

/** `jobSearch`'s arguments as the API received them (GraphQL has checked their types). */
export interface SearchArguments {
  what?: string | null;
  location?: {
    where?: string | null;
    radius?: number | null;
    radiusUnit?: RadiusUnit | null;
  } | null;
  limit?: number | null;
  cursor?: string | null;
  sort?: SearchSort | null;
  filters?: SearchFilters | null;
}

export interface SearchFilters {
  date?: { field: string; start?: string | null; end?: string | null } | null;
  keyword?: { field: string; keys: readonly string[] } | null;
  composite?: { filters: readonly SearchFilters[] } | null;
}

/** A search, checked and normalised: what the index is asked. */
export interface SearchRequest {
  /** The words of `what`, lower case; every one must match. */
  words: string[];
  /** The place and radius; null for anywhere. */
  near: { place: Place; radiusKm: number } | null;
  limit: number;
  sort: SearchSort;
  /** The date filter: only postings on the index for at most this many hours; null for any. */
  withinHours: number | null;
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
export const DEFAULT_RADIUS = 25;
const MOST_WORDS = 10;
const LONGEST_WORD = 50;
const LONGEST_TEXT = 300;
const LONGEST_DATE_FILTER_HOURS = 24 * 365;

/** Checks and normalises a search; a problem is a ValidationError naming the argument. */
export function searchRequest(
  args: SearchArguments,
  context: { places: Places; maxRadiusMiles: number },
): SearchRequest {
  return {
    words: wordsOf(args.what ?? ''),
    near: nearOf(args.location ?? null, context),
    limit: limitOf(args.limit),
    sort: args.sort ?? 'RELEVANCE',
    withinHours: withinHoursOf(args.filters ?? null),
  };
}

/** The words of a text: runs of letters and digits, lower case. */
export function wordsOf(what: string): string[] {
  if (what.length > LONGEST_TEXT) {
    throw new ValidationError(`what must be at most ${LONGEST_TEXT} characters`, 'what');
  }
  const distinct = [...new Set(searchWordsOf(what))];
  if (distinct.length > MOST_WORDS) {
    throw new ValidationError(`what must have at most ${MOST_WORDS} words`, 'what');
  }
  if (distinct.some((word) => word.length > LONGEST_WORD)) {
    throw new ValidationError(`what has a word longer than ${LONGEST_WORD} characters`, 'what');
  }
  return distinct;
}

function nearOf(
  location: SearchArguments['location'],
  context: { places: Places; maxRadiusMiles: number },
): SearchRequest['near'] {
  const unit = location?.radiusUnit ?? 'MILES';
  const radius = location?.radius ?? DEFAULT_RADIUS;
  const most =
    unit === 'MILES' ? context.maxRadiusMiles : Math.floor(context.maxRadiusMiles * KM_PER_MILE);
  if (!Number.isInteger(radius) || radius < 0 || radius > most) {
    throw new ValidationError(
      `location.radius must be a whole number from 0 to ${most} (${unit})`,
      'location.radius',
    );
  }
  const where = (location?.where ?? '').trim();
  if (!where) return null;
  if (where.length > LONGEST_TEXT) {
    throw new ValidationError(
      `location.where must be at most ${LONGEST_TEXT} characters`,
      'location.where',
    );
  }
  const place = context.places.search(where);
  if (!place) {
    throw new ValidationError(
      `location.where ${JSON.stringify(where)} is not a place this service knows: give a city ` +
        `("Austin, TX", "Berlin" or "Paris, France") or a US ZIP code ("78701")`,
      'location.where',
    );
  }
  return { place, radiusKm: unit === 'MILES' ? radius * KM_PER_MILE : radius };
}

function limitOf(limit: number | null | undefined): number {
  if (limit === null || limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new ValidationError(`limit must be a whole number from 1 to ${MAX_LIMIT}`, 'limit');
  }
  return limit;
}

/**
 * The one filter supported: `date { field: "dateOnIndeed", start: "<hours>h" }`, postings on
 * the index for at most that many hours. The keyword and composite filters (Indeed Apply scope,
 * taxonomy attributes) are refused: postings here carry neither.
 */
function withinHoursOf(filters: SearchFilters | null): number | null {
  if (!filters) return null;
  const given = (['date', 'keyword', 'composite'] as const).filter(
    (name) => filters[name] !== null && filters[name] !== undefined,
  );
  if (given.length > 1) {
    throw new ValidationError(
      'filters must name exactly one of date, keyword or composite',
      'filters',
    );
  }
  if (filters.keyword || filters.composite) {
    throw new ValidationError(
      `filters.${given[0]} is not supported here: only filters.date with field "dateOnIndeed" is`,
      `filters.${given[0]}`,
    );
  }
  const date = filters.date;
  if (!date) return null;
  if (date.field !== 'dateOnIndeed') {
    throw new ValidationError('filters.date.field must be "dateOnIndeed"', 'filters.date.field');
  }
  if (date.end !== null && date.end !== undefined) {
    throw new ValidationError(
      'filters.date.end is not supported: give start only',
      'filters.date.end',
    );
  }
  const hours = /^(\d{1,5})h$/.exec(date.start ?? '');
  if (!hours || Number(hours[1]) < 1 || Number(hours[1]) > LONGEST_DATE_FILTER_HOURS) {
    throw new ValidationError(
      `filters.date.start must be a number of hours from 1 to ${LONGEST_DATE_FILTER_HOURS} followed by "h", such as "24h"`,
      'filters.date.start',
    );
  }
  return Number(hours[1]);
}

/** What identifies a search for its cursors: the same search gives the same fingerprint. */
export function searchIdentity(request: SearchRequest): string {
  const near: Point | null = request.near?.place ?? null;
  return JSON.stringify([
    request.words,
    near ? [near.latitude, near.longitude, request.near!.radiusKm] : null,
    request.sort,
    request.withinHours,
  ]);
}
