import { randomBytes, randomInt } from 'node:crypto';
import type { CreateSourcedJobPostingInput } from '../generated/graphql.js';
import type { PostingSnapshot } from '../src/job-sync/posting-snapshot.js';
import { placesOfThisProcess } from '../src/job-search/places/places.js';
import { seedPostings } from '../src/job-search/seed/seeded-postings.js';
import { createCliServices } from '../src/cli/services.js';
import type { Database } from '../src/db/database.js';
import type { AppRow } from '../src/db/rows.js';
import { JOB_SYNC_API } from '../src/job-sync/graphql/caller.js';
import type { SharedDependencies } from '../src/shared-dependencies.js';
import { CREATE_SOURCED_POSTINGS } from './operations.js';

/** Postings in one createSourcedJobPostings request of the bench: the most the API takes. */
export const POSTINGS_PER_REQUEST = 100;

const REMOTE_TYPES: Readonly<Record<string, string>> = {
  Remote: 'Fully Remote',
  Hybrid: 'Hybrid Remote',
};
/** Jobs in Japan take taxonomy SUIDs, not labels (src/job-sync/rules/posting-rules.ts). */
const JAPAN_JOB_TYPE = 'CF3CP';

/**
 * `count` GraphQL bodies of createSourcedJobPostings, each with POSTINGS_PER_REQUEST new
 * postings: titles, companies, descriptions, places and pay made by `jobs seed`'s generator
 * (src/job-search/seed), keys (`jobPostingId`) that no other call of this process makes.
 */
export async function sourcedPostingBodies(count: number): Promise<string[]> {
  const places = placesOfThisProcess();
  await places.ready();
  const run = randomBytes(6).toString('hex');
  const bodies: string[] = [];
  await seedPostings(
    {
      count: count * POSTINGS_PER_REQUEST,
      batchSize: POSTINGS_PER_REQUEST,
      // The owner is the token's: these two are not sent.
      appId: '',
      employerId: '',
      spreadDays: 30,
      now: Date.now(),
      seed: randomInt(2 ** 31),
    },
    places.cities,
    {
      accept: async (batch) => {
        const request = bodies.length;
        const jobPostings = batch.map((posting, index) =>
          postingInput(posting, `BENCH-${run}-${request}-${index}`),
        );
        bodies.push(
          JSON.stringify({ query: CREATE_SOURCED_POSTINGS, variables: { input: { jobPostings } } }),
        );
      },
    },
  );
  return bodies;
}

/** A seeded posting as a partner sends it. */
function postingInput(
  posting: PostingSnapshot,
  jobPostingId: string,
): CreateSourcedJobPostingInput {
  const inJapan = posting.location.country === 'JP';
  const [jobType, workplace] = posting.jobTypes;
  const remoteType = workplace ? REMOTE_TYPES[workplace] : undefined;
  const slug = posting.companyName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const domain = `${slug}.example`;
  return {
    body: {
      title: posting.title,
      description: posting.description,
      descriptionFormatting: 'TEXT',
      hasProbationaryPeriod: 'UNKNOWN',
      location: {
        country: posting.location.country,
        cityRegionPostal: posting.location.cityRegionPostal,
        ...(remoteType && { remoteType }),
      },
      ...(posting.salary && {
        salary: {
          ...posting.salary,
          ...(inJapan && {
            fineGrainedSalaryInformation: { totalSalaryMinor: posting.salary.minimumMinor },
          }),
        },
      }),
      benefits: [...posting.benefits],
    },
    metadata: {
      jobPostingId,
      jobRequisitionId: `REQ-${jobPostingId}`,
      datePublished: new Date(posting.datePublished).toISOString(),
      url: `https://careers.${domain}/jobs/${jobPostingId}`,
      taxonomyClassification: { jobTypes: [inJapan ? JAPAN_JOB_TYPE : jobType!] },
      jobSource: {
        companyName: posting.companyName,
        companyWebsite: `https://www.${domain}`,
        sourceName: posting.sourceName,
        sourceType: 'Employer',
        isPlacement: false,
      },
      contacts: [
        {
          contactType: ['contact', 'recruiter'],
          contactInfo: { contactName: 'Talent Team', contactEmail: `talent@${domain}` },
        },
      ],
    },
  };
}

/** Lets the bench app call Job Sync, which an app may not until it is enabled for it. */
export async function enableJobSync(db: Database, shared: SharedDependencies, appId: string) {
  const app = await db<AppRow>('apps').where({ id: appId }).first();
  if (!app) throw new Error(`no app ${appId}`);
  await createCliServices(shared).apiAccess.setEnabled(app, JOB_SYNC_API, true);
}

/**
 * Takes the postings the Job Sync scenarios wrote (all of `employerId`'s) out of Job Sync and of
 * the search index, so that the job search stage measures the index sizes it seeds.
 */
export async function removeWrittenPostings(db: Database, employerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx('job_search_postings')
      .whereIn(
        'sourced_posting_id',
        tx('job_postings').select('sourced_posting_id').where({ employer_id: employerId }),
      )
      .delete();
    await tx('job_postings').where({ employer_id: employerId }).delete();
  });
}
