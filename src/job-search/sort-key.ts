/**
 * The one integer every search is ordered by (descending): the second a posting was published,
 * times 2^21, plus a tiebreak of 21 bits taken from its id (the next free one on a collision).
 * It stays below 2^53, so JavaScript numbers hold it exactly, and it is the FTS rowid on SQLite:
 * the text index hands rows over in this order and a page stops reading at its limit.
 */
const TIEBREAK_BITS = 21;
const TIEBREAKS = 2 ** TIEBREAK_BITS;
const LAST_SECOND = 2 ** 32 - 1;

/** The first sort key tried for a posting: its second, and the tiebreak its id hashes to. */
export function preferredSortKey(datePublished: number, sourcedPostingId: string): number {
  return secondOf(datePublished) * TIEBREAKS + tiebreakOf(sourcedPostingId);
}

/** The key to try after `key` is taken: the next tiebreak within the same second. */
export function nextSortKey(key: number): number {
  const second = Math.floor(key / TIEBREAKS);
  return second * TIEBREAKS + (((key % TIEBREAKS) + 1) % TIEBREAKS);
}

/** Whether two publication dates share their sort key's second (an upsert keeps its key). */
export function sameSecond(a: number, b: number): boolean {
  return secondOf(a) === secondOf(b);
}

/** Whether a number could be a sort key (a cursor's, for one). */
export function isSortKey(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value < (LAST_SECOND + 1) * TIEBREAKS;
}

function secondOf(epochMs: number): number {
  return Math.min(LAST_SECOND, Math.max(0, Math.floor(epochMs / 1000)));
}

/** FNV-1a of the id, folded to the tiebreak's bits. */
function tiebreakOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash % TIEBREAKS;
}
