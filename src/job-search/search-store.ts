import type { TextSearch } from '../db/dialects/text-search.js';
import { Store } from '../db/store.js';
import { SEARCH_COLUMNS, type SearchRow } from './indexed-posting.js';
import { SEARCH_TABLE, SEARCH_TEXT_INDEX } from './search-index.js';
import { nextSortKey, preferredSortKey, sameSecond } from './sort-key.js';

/** Rows written, or ids looked up, per statement. */
const CHUNK = 500;

/** A search of the index, without the columns (the store reads every one). */
export type IndexSearch = Omit<TextSearch, 'columns'>;

/**
 * job_search_postings, the job search index: only the search index's posting observer and the
 * seed write it, and the searches read it through the engine's text index.
 */
export class SearchStore extends Store {
  /**
   * Writes (or rewrites) the searchable document of each posting. A posting keeps its sort key
   * while its publication second stays the same, so that a walk over the results in progress
   * does not meet it twice; otherwise it gets the first free key of its new second.
   */
  async put(rows: readonly Omit<SearchRow, 'sort_key'>[]): Promise<void> {
    for (let start = 0; start < rows.length; start += CHUNK) {
      await this.putChunk(rows.slice(start, start + CHUNK));
    }
  }

  /** Takes a posting out of the index (expired, or no longer searchable). */
  async remove(sourcedPostingId: string): Promise<void> {
    await this.db(SEARCH_TABLE).where('sourced_posting_id', sourcedPostingId).delete();
  }

  /** One batch of matching rows, newest sort key first. */
  async search(search: IndexSearch): Promise<SearchRow[]> {
    const { sql, bindings } = this.dialect.textIndex.search(SEARCH_TEXT_INDEX, {
      ...search,
      columns: SEARCH_COLUMNS,
    });
    return (await this.dialect.select(this.db, sql, bindings)) as unknown as SearchRow[];
  }

  /**
   * One bounded step of the text index's upkeep (about `pages` pages of work), in a transaction
   * of its own; whether it found work to do. `compact` puts the whole index into its fastest
   * shape (after a bulk load) rather than doing the routine work.
   */
  async upkeepStep(pages: number, kind: 'merge' | 'compact' = 'merge'): Promise<boolean> {
    return this.inTransaction((store, tx) =>
      store.dialect.textIndex.upkeep.step(SEARCH_TEXT_INDEX, kind, pages, {
        select: (sql) => store.dialect.select(tx, sql, []),
        execute: async (sql) => {
          await tx.raw(sql);
        },
      }),
    );
  }

  /**
   * What the engine does once a bulk load is compacted, outside any transaction (PostgreSQL:
   * the joined terms' visibility map set, so that the title tier reads their B-tree alone).
   */
  async afterBulkLoad(): Promise<void> {
    for (const statement of this.dialect.textIndex.afterBulkLoad(SEARCH_TEXT_INDEX)) {
      await this.db.raw(statement);
    }
  }

  /** How many postings the index holds; for the seed's report. */
  async count(): Promise<number> {
    const [row] = await this.db(SEARCH_TABLE).count({ count: '*' });
    return Number(row?.count ?? 0);
  }

  private async putChunk(rows: readonly Omit<SearchRow, 'sort_key'>[]): Promise<void> {
    const ids = rows.map((row) => row.sourced_posting_id);
    const previous = new Map(
      (
        (await this.db(SEARCH_TABLE)
          .select('sourced_posting_id', 'sort_key', 'date_published')
          .whereIn('sourced_posting_id', ids)) as Pick<
          SearchRow,
          'sourced_posting_id' | 'sort_key' | 'date_published'
        >[]
      ).map((row) => [row.sourced_posting_id, row]),
    );
    if (previous.size) await this.db(SEARCH_TABLE).whereIn('sourced_posting_id', ids).delete();
    const keys = rows.map((row) => {
      const before = previous.get(row.sourced_posting_id);
      return before && sameSecond(before.date_published, row.date_published)
        ? Number(before.sort_key)
        : preferredSortKey(row.date_published, row.sourced_posting_id);
    });
    await this.freeKeys(keys);
    await this.db(SEARCH_TABLE).insert(
      rows.map((row, index) => ({ ...row, sort_key: keys[index] })),
    );
  }

  /** Moves each key that another row (stored, or earlier in `keys`) holds to a free one. */
  private async freeKeys(keys: number[]): Promise<void> {
    let unchecked = keys.map((_key, index) => index);
    while (unchecked.length) {
      const stored = new Set(
        (
          await this.db(SEARCH_TABLE)
            .pluck('sort_key')
            .whereIn(
              'sort_key',
              unchecked.map((index) => keys[index]!),
            )
        ).map(Number),
      );
      const checking = new Set(unchecked);
      const claimed = new Set<number>();
      const moved: number[] = [];
      keys.forEach((key, index) => {
        if (claimed.has(key) || (checking.has(index) && stored.has(key))) {
          keys[index] = nextSortKey(key);
          moved.push(index);
        } else claimed.add(key);
      });
      unchecked = moved;
    }
  }
}
