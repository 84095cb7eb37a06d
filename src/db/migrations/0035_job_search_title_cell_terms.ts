import { up as upgradeTextIndex } from './0034_job_search_place_terms.js';

/**
 * The job search's text index upgraded again, as 0034 did: on PostgreSQL each posting's document
 * also joined each title word with each of its cells, so that "every word in the title" near a
 * place read only the postings that match it; the document is computed again for every row.
 * SQLite's index is unchanged. (0036 moved those terms to a table of their own: the document
 * this computes now is the one without them.)
 */
export const up = upgradeTextIndex;

/** The new shape answers every search the old one did: nothing to undo. */
export async function down(): Promise<void> {}
