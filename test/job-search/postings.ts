import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transactions.js';
import type { PostingObserver, PostingSnapshot } from '../../src/job-sync/posting-snapshot.js';

export const HOUR = 3_600_000;

/** A live posting as Job Sync would hand it to the index; `changes` override any field. */
export function posting(
  changes: Partial<Omit<PostingSnapshot, 'location'>> & {
    location?: Partial<PostingSnapshot['location']>;
  } = {},
): PostingSnapshot {
  const id = changes.sourcedPostingId ?? randomUUID();
  const now = changes.updatedAt ?? Date.UTC(2026, 10, 1);
  return {
    sourcedPostingId: id,
    employerJobId: Buffer.from(`iri://apis.indeed.com/EmployerJob/${id}`).toString('base64'),
    appId: 'app-1',
    employerId: 'employer-1',
    jobPostingId: `REQ-${id.slice(0, 8)}`,
    sourceName: 'Acme Careers',
    sourceType: 'Employer',
    companyName: 'Acme',
    companyWebsite: null,
    title: 'Software Engineer',
    subtitle: null,
    description: 'Build and run our services.',
    descriptionFormatting: 'TEXT',
    salary: null,
    jobTypes: [],
    benefits: [],
    url: null,
    datePublished: now - HOUR,
    activeFrom: now - HOUR,
    expiredAt: null,
    updatedAt: now,
    ...changes,
    location: {
      country: 'US',
      cityRegionPostal: 'Austin, TX',
      streetAddress: null,
      ...changes.location,
    },
  };
}

/** Tells the observer of each posting change, each in its own transaction, as Job Sync does. */
export async function changed(
  db: Database,
  observer: PostingObserver,
  ...postings: PostingSnapshot[]
): Promise<void> {
  for (const snapshot of postings) {
    await inTransaction(db, (tx) => observer.postingChanged(tx, snapshot));
  }
}
