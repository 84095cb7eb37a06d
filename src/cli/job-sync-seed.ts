import type { CreateSourcedJobPostingInput } from '../../generated/graphql.js';
import type { PostingSink } from '../job-search/seed/seeded-postings.js';
import type { PostingSnapshot } from '../job-sync/posting-snapshot.js';
import {
  MAX_POSTINGS_PER_REQUEST,
  type PostingOwner,
  type PostingWriter,
} from '../job-sync/posting-writer.js';

/** What the generator calls a workplace, as Job Sync's `body.location.remoteType`. */
const REMOTE_TYPES: Readonly<Record<string, string>> = {
  Remote: 'Fully Remote',
  Hybrid: 'Hybrid Remote',
};

/**
 * `jobs seed` through Job Sync: each generated posting is sent to `PostingWriter` as a partner
 * sends it (`createSourcedJobPostings`), at most MAX_POSTINGS_PER_REQUEST per call, each call one
 * transaction with the API's rules, webhooks and search index observer. Job Sync gives the
 * postings their ids and lifecycle; a posting the rules refuse stops the seed with its problem.
 */
export function jobSyncSink(writer: PostingWriter, owner: PostingOwner): PostingSink {
  return {
    async accept(postings) {
      for (let start = 0; start < postings.length; start += MAX_POSTINGS_PER_REQUEST) {
        const chunk = postings.slice(start, start + MAX_POSTINGS_PER_REQUEST);
        const outcomes = await writer.createOrUpdate(owner, chunk.map(inputOf));
        const refused = outcomes.find((outcome) => outcome.problem);
        if (refused) {
          const key = chunk[refused.index]!.jobPostingId;
          throw new Error(`seeded posting ${key} refused: ${refused.problem!.message}`);
        }
      }
    },
  };
}

/** A generated posting as the input a partner would send for it. */
export function inputOf(posting: PostingSnapshot): CreateSourcedJobPostingInput {
  const remoteType = posting.jobTypes.map((type) => REMOTE_TYPES[type]).find(Boolean);
  // Jobs in Japan take taxonomy SUIDs only and a fine-grained salary, which the generator does
  // not make: they go without job types and salary.
  const inJapan = posting.location.country === 'JP';
  const jobTypes = inJapan ? [] : posting.jobTypes.filter((type) => !REMOTE_TYPES[type]);
  const salary = inJapan ? null : posting.salary;
  return {
    body: {
      title: posting.title,
      description: posting.description,
      descriptionFormatting: posting.descriptionFormatting,
      location: {
        country: posting.location.country,
        cityRegionPostal: posting.location.cityRegionPostal,
        ...(remoteType && { remoteType }),
      },
      salary: salary && {
        currency: salary.currency,
        minimumMinor: salary.minimumMinor,
        maximumMinor: salary.maximumMinor,
        period: salary.period,
      },
      benefits: [...posting.benefits],
    },
    metadata: {
      jobPostingId: posting.jobPostingId,
      datePublished: new Date(posting.datePublished).toISOString(),
      jobSource: {
        companyName: posting.companyName,
        sourceName: posting.sourceName,
        sourceType: posting.sourceType,
      },
      contacts: [{ contactType: ['contact'], contactInfo: { contactEmail: 'jobs@example.com' } }],
      ...(jobTypes.length > 0 && { taxonomyClassification: { jobTypes } }),
    },
  };
}
