import type { DomainError } from '../errors.js';
import type { StoredPosting } from './posting.js';

/** What became of one posting of the input, at its index. */
export interface PostingOutcome {
  index: number;
  posting: StoredPosting | null;
  problem: DomainError | null;
}

/** What became of one id to expire, at its index. */
export interface ExpiryOutcome {
  index: number;
  requestedId: string;
  trackingKey: string | null;
  problem: DomainError | null;
}
