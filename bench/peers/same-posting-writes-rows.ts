import { randomUUID } from 'node:crypto';
import type { CreateSourcedJobPostingInput } from '../../generated/graphql.js';
import type { SearchRow } from '../../src/job-search/indexed-posting.js';
import { searchRowOf } from '../../src/job-search/indexed-posting.js';
import type { Places } from '../../src/job-search/places/places.js';
import { snapshotOf } from '../../src/job-sync/posting-notices.js';
import { rowOf, type PostingRow } from '../../src/job-sync/posting-store.js';
import { employerJobIdOf, type StoredPosting } from '../../src/job-sync/posting.js';
import { checkPosting } from '../../src/job-sync/rules/posting-rules.js';

/** Whose postings the peer writes, and how long a new one stays PENDING (the service's default). */
export interface PostingsOwner {
  appId: string;
  employerId: string;
  indexingDelayMs: number;
}

/**
 * The rows the service writes for createSourcedJobPostings of new keys
 * (src/job-sync/posting-writer.ts) when the app has no webhook endpoints: one job_postings row
 * per posting (PostingStore's rowOf: the posting after the input rules, as JSON, and the
 * columns looked up beside it), and its search document in job_search_postings (the search
 * index's observer: place resolved offline, grid cells), whose sort key the store picks
 * (src/job-search/sort-key.ts). The outbox's INSERT ... SELECT of webhook_deliveries writes no row
 * for an app without endpoints, so nothing stands for it here. The text index over
 * job_search_postings is kept by what the migrations made (SQLite triggers, a PostgreSQL
 * generated column), in the peer's database as in the service's.
 */
export interface PostingRows {
  postings: PostingRow[];
  /** Without their sort keys: the store gives them the first free one. */
  searchRows: Array<Omit<SearchRow, 'sort_key'>>;
}

/** The rows for the body the bench sends the service: `{ query, variables: { input } }`. */
export function postingRows(body: string, owner: PostingsOwner, places: Places): PostingRows {
  const { jobPostings } = (
    JSON.parse(body) as { variables: { input: { jobPostings: CreateSourcedJobPostingInput[] } } }
  ).variables.input;
  const now = Date.now();
  const stored = jobPostings.map((input): StoredPosting => {
    const content = checkPosting(input, now);
    const sourcedPostingId = randomUUID();
    return {
      id: randomUUID(),
      sourcedPostingId,
      employerJobId: employerJobIdOf(sourcedPostingId),
      appId: owner.appId,
      employerId: owner.employerId,
      content,
      datePublished: content.datePublished ?? now,
      activeFrom: now + owner.indexingDelayMs,
      expiredAt: null,
      createdAt: now,
      updatedAt: now,
    };
  });
  return {
    postings: stored.map(rowOf),
    searchRows: stored.map((posting) => searchRowOf(snapshotOf(posting), places)),
  };
}
