import type { TextIndex } from '../db/dialects/text-search.js';
import { GRID_LEVELS } from './geo-cells.js';

/** The table of the job search index, owned by src/job-search (migration 0031). */
export const SEARCH_TABLE = 'job_search_postings';

/**
 * Its text index: title first (the "all words in the title" tier of relevance), then company
 * and description; one grid cell column per level; the title's words joined with the finest
 * cell (title-cell-terms.ts).
 */
export const SEARCH_TEXT_INDEX: TextIndex = {
  table: SEARCH_TABLE,
  key: 'sort_key',
  textColumns: ['title', 'company_name', 'description_text'],
  cellColumns: GRID_LEVELS.map((level) => level.column),
  joinedTermsColumn: 'title_cell_terms',
};
