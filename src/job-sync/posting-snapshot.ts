import type { Executor } from '../db/transactions.js';

/**
 * A sourced job posting as Job Sync last wrote it, handed to whoever keeps a projection of the
 * postings (the job search index) inside the transaction of the change, so that a projection
 * never sees a change that did not commit and never misses one that did. Job Sync owns the
 * postings; observers keep only their own rows.
 */
export interface PostingSnapshot {
  /** The UUID form (`sourcedPostingId`). */
  readonly sourcedPostingId: string;
  /** The base64 IRI form (`employerJobId`) of the same job. */
  readonly employerJobId: string;
  /** The partner app that posted it (apps.id). */
  readonly appId: string;
  /** The employer of the token it was posted with (employers.id). */
  readonly employerId: string;
  readonly jobPostingId: string;
  readonly sourceName: string;
  readonly sourceType: string;
  readonly companyName: string;
  readonly companyWebsite: string | null;
  readonly title: string;
  readonly subtitle: string | null;
  readonly description: string;
  readonly descriptionFormatting: 'TEXT' | 'RICH_FORMATTING';
  readonly location: {
    readonly country: string;
    readonly cityRegionPostal: string | null;
    readonly streetAddress: string | null;
  };
  readonly salary: {
    readonly currency: string;
    /** Minor units, as decimal strings (Int64). */
    readonly minimumMinor: string;
    readonly maximumMinor: string | null;
    readonly period: string;
  } | null;
  readonly jobTypes: readonly string[];
  readonly benefits: readonly string[];
  readonly url: string | null;
  /** Epoch milliseconds. */
  readonly datePublished: number;
  /** When indexing completes and the posting is ACTIVE (PENDING before); epoch ms. */
  readonly activeFrom: number;
  /** When it was expired (INACTIVE from then on), or null while it is live; epoch ms. */
  readonly expiredAt: number | null;
  readonly updatedAt: number;
}

/** Told of every committed posting change, in the change's own transaction. */
export interface PostingObserver {
  /**
   * Called before the transaction of a change begins: what the observer needs loaded (the
   * search index's places) is loaded then, never while the transaction holds its locks.
   */
  prepare?(): Promise<void>;
  postingChanged(tx: Executor, posting: PostingSnapshot): Promise<void>;
  /** Many changes of one write at once, when the observer can take them together. */
  postingsChanged?(tx: Executor, postings: readonly PostingSnapshot[]): Promise<void>;
}
