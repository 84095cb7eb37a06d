import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { JobSearchSettings } from '../config.js';
import type { WordPlacement } from '../db/dialects/text-search.js';
import { ValidationError } from '../errors.js';
import { boundingBox, distanceKm } from './geo.js';
import { coveringCells, GRID_LEVELS } from './geo-cells.js';
import type { SearchRow } from './indexed-posting.js';
import type { Places } from './places/places.js';
import { decodeCursor, encodeCursor, fingerprintOf, type CursorPosition } from './search-cursor.js';
import {
  searchIdentity,
  searchRequest,
  type SearchArguments,
  type SearchRequest,
} from './search-request.js';
import type { IndexSearch, SearchStore } from './search-store.js';
import { titleCellQueryOf } from './title-cell-terms.js';

/** One result of a page: the posting's searchable document and the result's tracking key. */
export interface SearchResult {
  readonly trackingKey: string;
  readonly posting: SearchRow;
}

export interface SearchPage {
  readonly results: readonly SearchResult[];
  /** Where the next page starts; null after the last. */
  readonly nextCursor: string | null;
}

/** A posting found while walking the index, with the tier it was found in. */
interface Found {
  readonly row: SearchRow;
  readonly tier: number;
}

/**
 * `jobSearch` over the index (DESIGN §10): the postings on the index now (active since their
 * `activeFrom`, not expired) whose title, company and description hold every word of `what`,
 * within the radius of the place `where` names.
 *
 * Order. DATE: newest publication first. RELEVANCE: tiers by where the words are (every word in
 * the title, then the other matches), newest first within a tier: a text rank that depends on
 * the posting and the words only, so that it pages by keyset in the index's own order, reading
 * about one page of rows per page, and stays the same while postings are added (a corpus-wide
 * score such as BM25 would move with every new posting and would need every match scored for
 * each page).
 */
export class JobSearch {
  constructor(
    private readonly store: SearchStore,
    private readonly places: Places,
    private readonly clock: Clock,
    private readonly settings: JobSearchSettings,
  ) {}

  async search(args: SearchArguments): Promise<SearchPage> {
    await this.places.ready();
    const request = searchRequest(args, {
      places: this.places,
      maxRadiusMiles: this.settings.maxRadiusMiles,
    });
    const fingerprint = fingerprintOf(searchIdentity(request));
    const tiers = tiersOf(request);
    const start: CursorPosition | null = args.cursor
      ? decodeCursor(args.cursor, request.sort, fingerprint)
      : null;
    if (start && start.tier >= tiers.length) {
      throw new ValidationError('cursor is not a cursor of jobSearch', 'cursor');
    }
    const walk = await this.walk(request, tiers, start);
    const results = walk.found.slice(0, request.limit).map(({ row }) => ({
      trackingKey: trackingKeyOf(fingerprint, row),
      posting: row,
    }));
    const last = walk.found[request.limit - 1];
    const position: CursorPosition | null =
      walk.found.length > request.limit && last
        ? { tier: last.tier, sortKey: last.row.sort_key }
        : walk.stoppedAt;
    return {
      results,
      nextCursor: position ? encodeCursor(request.sort, fingerprint, position) : null,
    };
  }

  /**
   * Reads the index tier by tier from the start position until one more result than the page
   * holds is found (so that a next page is known to exist), or the tiers end, or the page has
   * read its batches (`stoppedAt` is then where it stopped).
   */
  private async walk(
    request: SearchRequest,
    tiers: readonly WordPlacement[],
    start: CursorPosition | null,
  ): Promise<{ found: Found[]; stoppedAt: CursorPosition | null }> {
    const base = this.baseSearch(request);
    const within = request.near
      ? (row: SearchRow) =>
          row.latitude !== null &&
          row.longitude !== null &&
          distanceKm(request.near!.place, { latitude: row.latitude, longitude: row.longitude }) <=
            request.near!.radiusKm
      : () => true;
    const found: Found[] = [];
    let batches = 0;
    for (let tier = start?.tier ?? 0; tier < tiers.length; tier++) {
      let before = start && tier === start.tier ? start.sortKey : null;
      for (;;) {
        const wanted = request.limit + 1 - found.length;
        // Some rows of the bounding box lie outside the circle: ask for a few more.
        const size = request.near ? Math.ceil(wanted * 1.3) + 2 : wanted;
        const rows = await this.store.search({
          ...base,
          placement: tiers[tier]!,
          before,
          limit: size,
        });
        for (const row of rows) {
          before = row.sort_key;
          if (within(row)) found.push({ row, tier });
          if (found.length > request.limit) return { found, stoppedAt: null };
        }
        if (rows.length < size) break;
        if (++batches >= this.settings.batchesPerPage) {
          return { found, stoppedAt: { tier, sortKey: before! } };
        }
      }
    }
    return { found, stoppedAt: null };
  }

  /** What every batch of a search asks the index, but the tier, the position and the size. */
  private baseSearch(request: SearchRequest): Omit<IndexSearch, 'placement' | 'before' | 'limit'> {
    const now = this.clock.now();
    const conditions: { sql: string; bindings: unknown[] }[] = [
      { sql: 'indexed.active_from <= ?', bindings: [now] },
    ];
    if (request.withinHours !== null) {
      conditions.push({
        sql: 'indexed.active_from >= ?',
        bindings: [now - request.withinHours * 3_600_000],
      });
    }
    if (!request.near) return { words: request.words, cells: null, joinedTerms: null, conditions };
    const { place, radiusKm } = request.near;
    const box = boundingBox(place, radiusKm);
    conditions.push({
      sql: 'indexed.latitude BETWEEN ? AND ?',
      bindings: [box.latitude.min, box.latitude.max],
    });
    if (box.longitude) {
      const { min, max } = box.longitude;
      conditions.push(
        min < -180 || max > 180
          ? // The box crosses the antimeridian: two ranges.
            {
              sql: '(indexed.longitude >= ? OR indexed.longitude <= ?)',
              bindings: min < -180 ? [min + 360, max] : [min, max - 360],
            }
          : { sql: 'indexed.longitude BETWEEN ? AND ?', bindings: [min, max] },
      );
    }
    const cells = coveringCells(place, radiusKm);
    return {
      words: request.words,
      cells,
      joinedTerms:
        cells?.column === GRID_LEVELS[0].column ? titleCellQueryOf(request.words, cells.ids) : null,
      conditions,
    };
  }
}

/** The tiers a search walks, in order. */
function tiersOf(request: SearchRequest): WordPlacement[] {
  return request.sort === 'RELEVANCE' && request.words.length
    ? ['first-column', 'not-all-in-first-column']
    : ['anywhere'];
}

function trackingKeyOf(fingerprint: string, row: SearchRow): string {
  return createHash('sha256')
    .update(`${fingerprint}.${row.sourced_posting_id}`)
    .digest('base64url')
    .slice(0, 16);
}
