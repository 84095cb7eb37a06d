import type { StoredPosting } from '../posting.js';
import type { ExpiryOutcome, PostingOutcome } from '../outcomes.js';

/** `jobsIngest`: a namespace; its fields do the work. */
export type JobsIngestParent = Record<string, never>;

export interface CreateResultsParent {
  results: PostingOutcome[];
}

export interface ExpiryResultsParent {
  results: ExpiryOutcome[];
}

export interface ExpiryInputParent {
  sourcedPostingId: string;
}

/**
 * An `EmployerJob`: its id, and the posting it names when known. `posting` is left out when
 * the job comes from the Interview API (`{ id }` only); Job Sync's resolvers then load it.
 */
export interface EmployerJobParent {
  __typename?: 'EmployerJob';
  id: string;
  posting?: StoredPosting | null;
}

/** A posting's status as read at `now`, on the surfaces asked for. */
export interface PostStatusParent {
  posting: StoredPosting;
  now: number;
  surfaces: string[];
}

export interface SurfaceParent {
  placementId: string;
}

/** The seats of an EmployerJob: of its posting, or none when its id names no posting. */
export interface SeatsParent {
  posting: StoredPosting | null;
}
