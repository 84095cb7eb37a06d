import type { CreateSourcedJobPostingInput } from '../../generated/graphql.js';
import type { Database } from '../../src/db/database.js';
import type { AppRow } from '../../src/db/rows.js';
import { testCliServices } from './compose.js';

/** A posting that passes every rule of createSourcedJobPostings; `key` makes its upsert key. */
export function postingInput(key: string, title = 'Software Engineer') {
  return {
    body: {
      title,
      description: `Build and run the services behind ${key}.`,
      descriptionFormatting: 'TEXT',
      salary: {
        currency: 'USD',
        minimumMinor: 9_000_000,
        maximumMinor: 12_000_000,
        period: 'YEAR',
      },
      location: { country: 'US', cityRegionPostal: 'Austin, TX, 78701' },
      benefits: ['Health insurance'],
    },
    metadata: {
      jobSource: {
        companyName: 'Acme Robotics',
        sourceName: 'Acme ATS',
        sourceType: 'Employer',
      },
      jobPostingId: key,
      datePublished: '2026-10-01T10:00Z',
      url: `https://careers.example.com/jobs/${encodeURIComponent(key)}`,
      contacts: [
        {
          contactType: 'contact',
          contactInfo: { contactName: 'Riley Recruiter', contactEmail: 'riley@example.com' },
        },
      ],
    },
    applyMethod: { indeedApply: { postUrl: 'https://ats.example.com/apply' } },
  };
}

/**
 * `postingInput` as the API hands it to Job Sync's writer: GraphQL has coerced each single
 * contact type into a list of one.
 */
export function writerInput(
  key: string,
  title?: string,
  sourceName?: string,
): CreateSourcedJobPostingInput {
  const input = postingInput(key, title);
  const contacts = input.metadata.contacts.map((contact) => ({
    ...contact,
    contactType: [contact.contactType],
  }));
  const jobSource = { ...input.metadata.jobSource, sourceName: sourceName ?? 'Acme ATS' };
  return {
    ...input,
    metadata: { ...input.metadata, contacts, jobSource },
  } as unknown as CreateSourcedJobPostingInput;
}

/** Turns on APIs an owner must enable first (Job Sync, Employer Data) for the app. */
export async function enableApis(db: Database, appId: string, apis: readonly string[]) {
  const app = (await db('apps').where({ id: appId }).first()) as AppRow;
  const { apiAccess } = testCliServices(db);
  for (const api of apis) await apiAccess.setEnabled(app, api, true);
}

export const CREATE = `mutation Create($input: CreateSourcedJobPostingsInput) {
  jobsIngest {
    createSourcedJobPostings(input: $input) {
      results { jobPosting { sourcedPostingId employerJobId } }
    }
  }
}`;

export const EXPIRE = `mutation Expire($input: ExpireSourcedJobsBySourcedPostingIdInput!) {
  jobsIngest {
    expireSourcedJobsBySourcedPostingId(input: $input) {
      results {
        trackingKey
        inputData { ... on ExpireSourcedJobBySourcedPostingIdInfo { sourcedPostingId } }
      }
    }
  }
}`;

export const STATUS = `query Status($id: ID!) {
  node(id: $id) {
    ... on EmployerJob {
      id
      seats { jobPost { id status { globalStatus { lifecycleStatus isIndeedApplyActive } } } }
      jobData { title company }
    }
  }
}`;

export const PATCH_EMPLOYER = `mutation PatchEmployer($input: PatchEmployerInput!) {
  patchEmployer(input: $input) { responseCode attributeUpdated errors { message } employerKey }
}`;
