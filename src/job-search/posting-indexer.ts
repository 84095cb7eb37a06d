import type { Executor } from '../db/transactions.js';
import type { PostingObserver, PostingSnapshot } from '../job-sync/posting-snapshot.js';
import { searchRowOf } from './indexed-posting.js';
import type { Places } from './places/places.js';
import { SearchStore } from './search-store.js';

/**
 * Keeps the search index in step with the postings: Job Sync tells it of every posting change
 * in the change's transaction (PostingObserver), and it writes the posting's searchable
 * document there, or takes an expired posting out. The seed hands it postings in batches.
 */
export class PostingIndexer implements PostingObserver {
  constructor(
    private readonly store: SearchStore,
    private readonly places: Places,
  ) {}

  /** The places, loaded before Job Sync's transaction (once per process). */
  prepare(): Promise<void> {
    return this.places.ready();
  }

  async postingChanged(tx: Executor, posting: PostingSnapshot): Promise<void> {
    // Job Sync prepared this observer; a caller that did not waits here.
    await this.places.ready();
    const store = new SearchStore(tx);
    if (posting.expiredAt !== null) await store.remove(posting.sourcedPostingId);
    else await store.put([searchRowOf(posting, this.places)]);
  }

  /** Many changes of one Job Sync write: the expired ones taken out, the others put at once. */
  async postingsChanged(tx: Executor, postings: readonly PostingSnapshot[]): Promise<void> {
    await this.places.ready();
    const store = new SearchStore(tx);
    for (const posting of postings) {
      if (posting.expiredAt !== null) await store.remove(posting.sourcedPostingId);
    }
    const live = postings.filter((posting) => posting.expiredAt === null);
    if (live.length) await store.put(live.map((posting) => searchRowOf(posting, this.places)));
  }

  /** Indexes many postings in one transaction (the seed's batches); expired ones are left out. */
  async indexMany(postings: readonly PostingSnapshot[]): Promise<void> {
    await this.places.ready();
    const rows = postings
      .filter((posting) => posting.expiredAt === null)
      .map((posting) => searchRowOf(posting, this.places));
    await this.store.inTransaction((store) => store.put(rows));
  }
}
