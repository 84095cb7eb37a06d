import type { Transaction } from '../db/transactions.js';
import type { JobPostingEventType } from '../webhooks/event-types.js';
import { recordAll, type WebhookOutbox } from '../webhooks/outbox.js';
import type { PostingObserver, PostingSnapshot } from './posting-snapshot.js';
import type { StoredPosting } from './posting.js';

/** What happened to a posting in one write. */
export type PostingChange = 'created' | 'updated' | 'expired' | 'reactivated';

/** A posting as one write left it, and what happened to it. */
export interface PostingChangeNotice {
  posting: StoredPosting;
  change: PostingChange;
  /** A reactivation after 30 days: the sourcedPostingId the posting had before. */
  previousSourcedPostingId?: string;
}

const TYPES: Record<PostingChange, JobPostingEventType> = {
  created: 'job.posting.created.v1',
  updated: 'job.posting.updated.v1',
  expired: 'job.posting.expired.v1',
  reactivated: 'job.posting.reactivated.v1',
};

/**
 * `data.lifecycleEvent`: the platform's V1 says `UPDATED` for a creation and an update
 * (platform-apis.md §8); its other values are not public, so these are this twin's.
 */
const LIFECYCLE_EVENTS: Record<PostingChange, string> = {
  created: 'UPDATED',
  updated: 'UPDATED',
  expired: 'EXPIRED',
  reactivated: 'REACTIVATED',
};

/**
 * Tells whoever hears of posting changes, in the change's own transaction: each observer (the
 * search index keeps its projection), then the webhook outbox (`job.posting.*`, a thin `data`).
 */
export class PostingNotices {
  constructor(
    private readonly observers: readonly PostingObserver[],
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Lets each observer load what it needs before a change's transaction begins. */
  async prepare(): Promise<void> {
    await Promise.all(this.observers.map((observer) => observer.prepare?.()));
  }

  async changed(
    tx: Transaction,
    posting: StoredPosting,
    change: PostingChange,
    now: number,
    previousSourcedPostingId?: string,
  ): Promise<void> {
    await this.changedMany(tx, [{ posting, change, previousSourcedPostingId }], now);
  }

  /** Many changes of one write together: each observer and the outbox hear them at once. */
  async changedMany(
    tx: Transaction,
    changes: readonly PostingChangeNotice[],
    now: number,
  ): Promise<void> {
    if (!changes.length) return;
    const snapshots = changes.map(({ posting }) => snapshotOf(posting));
    for (const observer of this.observers) {
      if (observer.postingsChanged) await observer.postingsChanged(tx, snapshots);
      else for (const snapshot of snapshots) await observer.postingChanged(tx, snapshot);
    }
    await recordAll(
      this.outbox,
      changes.map(({ posting, change, previousSourcedPostingId }) => ({
        appId: posting.appId,
        employerId: posting.employerId,
        type: TYPES[change],
        subject: posting.employerJobId,
        time: now,
        data: {
          employerJobId: posting.employerJobId,
          sourcedPostingId: posting.sourcedPostingId,
          employerId: posting.employerId,
          lifecycleEvent: LIFECYCLE_EVENTS[change],
          ...(previousSourcedPostingId && { previousSourcedPostingId }),
        },
      })),
      tx,
    );
  }
}

export function snapshotOf(posting: StoredPosting): PostingSnapshot {
  const { content } = posting;
  return {
    sourcedPostingId: posting.sourcedPostingId,
    employerJobId: posting.employerJobId,
    appId: posting.appId,
    employerId: posting.employerId,
    jobPostingId: content.jobPostingId,
    sourceName: content.jobSource.sourceName,
    sourceType: content.jobSource.sourceType,
    companyName: content.jobSource.companyName,
    companyWebsite: content.jobSource.companyWebsite,
    title: content.title,
    subtitle: content.subtitle,
    description: content.description,
    descriptionFormatting: content.descriptionFormatting,
    location: {
      country: content.location.country,
      cityRegionPostal: content.location.cityRegionPostal,
      streetAddress: content.location.streetAddress,
    },
    salary: content.salary && {
      currency: content.salary.currency,
      minimumMinor: content.salary.minimumMinor,
      maximumMinor: content.salary.maximumMinor,
      period: content.salary.period,
    },
    jobTypes: content.jobTypes,
    benefits: content.benefits,
    url: content.url,
    datePublished: posting.datePublished,
    activeFrom: posting.activeFrom,
    expiredAt: posting.expiredAt,
    updatedAt: posting.updatedAt,
  };
}
