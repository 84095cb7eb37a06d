import { stemmer } from 'stemmer';

/**
 * Terms that join each word of a posting's title with its finest grid cell (`engin x 187411`
 * written `enginx187411`), so that "every word of `what` in the title, near a place" is a lookup
 * of the terms of those words in those cells alone: it reads only the postings that match, not
 * every posting of the place nor every title with the words (DESIGN §10, docs/jobs-apis.md).
 *
 * The index keeps them beside the title (job_search_postings.title_cell_terms, written here and
 * read by SQLite's FTS5 table; PostgreSQL joins the words in its own document). Words are stemmed
 * (Porter) so that a title's "Engineers" meets a search for "engineer". The stems are the
 * application's own, not the engine's: a word the two stem apart only moves between the tiers
 * of relevance, since the second tier is "matches, and not in the first".
 */

/** The words of a text as the search compares them: letters and digits, lower case. */
export function searchWordsOf(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => word.replace(/[^\p{Ll}\p{Lo}\p{N}]/gu, ''))
    .filter(Boolean);
}

/** A title's terms in its cell, space separated; empty for a posting with no place. */
export function titleCellTermsOf(title: string, cell: number | null): string {
  if (cell === null) return '';
  const stems = new Set(searchWordsOf(title).map(stemOf));
  return [...stems].map((stem) => termOf(stem, cell)).join(' ');
}

/**
 * What a search near `cells` asks of the terms: for each word, the terms any one of which a
 * posting must hold.
 */
export function titleCellQueryOf(words: readonly string[], cells: readonly number[]): string[][] {
  return words.map((word) => {
    const stem = stemOf(word);
    return cells.map((cell) => termOf(stem, cell));
  });
}

function stemOf(word: string): string {
  return stemmer(word);
}

/**
 * The stem, then `x` and the cell's number: the term ends in a digit, which no stemmer rule
 * strips, and the last `x` marks where the cell starts, so no two (stem, cell) pairs meet.
 */
function termOf(stem: string, cell: number): string {
  return `${stem}x${Math.trunc(cell)}`;
}
