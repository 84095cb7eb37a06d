import type { SharedDependencies } from '../shared-dependencies.js';
import { IndexUpkeep, type RunningUpkeep } from './index-upkeep.js';
import { JobSearch } from './job-search.js';
import { placesOfThisProcess, type Places } from './places/places.js';
import { PostingIndexer } from './posting-indexer.js';
import { SearchStore } from './search-store.js';
import { seedPostings, type PostingSink, type SeedOptions } from './seed/seeded-postings.js';

export interface JobSearchCapability {
  /** `jobSearch` itself, for the API's resolvers. */
  search: JobSearch;
  /**
   * The search index as an observer of the postings: Job Sync calls it in the transaction of
   * every posting change (src/job-sync/posting-snapshot.ts). Also what the bench's seed feeds.
   */
  postingObserver: PostingIndexer;
  /** How many postings the index holds. */
  indexedCount(): Promise<number>;
  /**
   * Realistic postings (`jobs seed` and the bench), generated in batches, into `sink`; then
   * the index compacted, as after any bulk load.
   */
  seed(options: SeedOptions, sink: PostingSink, progress?: (done: number) => void): Promise<void>;
  /** Starts this process's upkeep of the index (every process runs one; index-upkeep.ts). */
  startUpkeep(): RunningUpkeep;
  /**
   * The bench's fast path (bench/job-search-stage.ts grows the index to 1M with it): generated
   * postings straight into the index, one transaction per batch, with no posting behind them in
   * Job Sync. Searches find them; node(id) and the console do not. `jobs seed` goes through
   * Job Sync instead.
   */
  indexSink: PostingSink;
}

/**
 * The job search capability (DESIGN §10): its index (job_search_postings, written only by its
 * posting observer) and the index's upkeep, places resolved offline (GeoNames cities and US ZIP
 * codes, loaded once on first use) and the search.
 */
export function composeJobSearch(
  shared: SharedDependencies,
  places: Places = placesOfThisProcess(),
): JobSearchCapability {
  const store = new SearchStore(shared.db);
  const postingObserver = new PostingIndexer(store, places);
  const upkeep = new IndexUpkeep(store);
  return {
    search: new JobSearch(store, places, shared.clock, shared.config.jobSearch),
    postingObserver,
    indexedCount: () => store.count(),
    seed: async (options, sink, progress) => {
      await places.ready();
      await seedPostings(options, places.cities, sink, progress);
      await upkeep.compact();
    },
    startUpkeep: () => upkeep.start(shared.logger),
    indexSink: { accept: (postings) => postingObserver.indexMany(postings) },
  };
}
