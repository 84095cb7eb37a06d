import type { SharedDependencies } from '../shared-dependencies.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { PostingNotices } from './posting-notices.js';
import { PostingReader } from './posting-reader.js';
import type { PostingObserver } from './posting-snapshot.js';
import { PostingStore } from './posting-store.js';
import { PostingWriter, type EmployerDirectory } from './posting-writer.js';

/** Job Sync: the postings' one writer, their reads, and the clock lifecycles are read at. */
export interface JobSync {
  writer: PostingWriter;
  reader: PostingReader;
  /** Now, for a posting's lifecycle status (PENDING, ACTIVE, INACTIVE). */
  now(): number;
}

export function composeJobSync(
  shared: SharedDependencies,
  deps: {
    /** Where `job.posting.*` webhooks go, in each change's transaction. */
    outbox: WebhookOutbox;
    /** Employer Data's answer to which `employerIds` pairs an app created. */
    employers: EmployerDirectory;
    /** Projections of the postings (the search index), told in each change's transaction. */
    observers: readonly PostingObserver[];
  },
): JobSync {
  const store = new PostingStore(shared.db);
  const notices = new PostingNotices(deps.observers, deps.outbox);
  return {
    writer: new PostingWriter(
      store,
      shared.clock,
      { indexingDelayMs: shared.config.jobSync.indexingDelayMs },
      deps.employers,
      notices,
    ),
    reader: new PostingReader(store),
    now: () => shared.clock.now(),
  };
}
