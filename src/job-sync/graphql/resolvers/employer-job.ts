import type {
  EmployerJobDataResolvers,
  EmployerJobDescriptionResolvers,
  EmployerJobExternalPostingMetadataResolvers,
  EmployerJobLocationResolvers,
  EmployerJobManagementUrlsResolvers,
  EmployerJobResolvers,
  EmployerJobRoleDataResolvers,
  EmployerJobRoleMetaDataResolvers,
  EmployerJobSalaryResolvers,
  EmployerJobSeatResolvers,
  EmployerJobSeatsConnectionResolvers,
} from '../../../../generated/graphql.js';
import type { OffsetDateTime } from '../../../graphql/api.js';
import { lifecycleAt, sourcedPostingIdOf } from '../../posting.js';
import type { JobSyncContext } from '../context.js';
import type { EmployerJobParent } from '../parents.js';

function utc(epochMs: number): OffsetDateTime {
  return { epochMs, offsetMinutes: 0 };
}

/**
 * The posting an EmployerJob names: given with it by `node`, else (a job of the Interview API)
 * the token's employer's posting with that id, read by the request's loader; null when none.
 */
async function postingOf(job: EmployerJobParent, context: JobSyncContext) {
  if (job.posting !== undefined) return job.posting;
  const sourcedPostingId = sourcedPostingIdOf(job.id);
  return sourcedPostingId ? context.jobSync.postings.load(sourcedPostingId) : null;
}

export const EmployerJob: EmployerJobResolvers<JobSyncContext> = {
  id: (job) => job.id,
  seats: async (job, _args, context) => {
    const posting = await postingOf(job, context);
    return posting ? [posting] : [];
  },
  seatsConnection: async (job, _args, context) => ({ posting: await postingOf(job, context) }),
  managementUrls: (job, _args, context) => postingOf(job, context),
  jobData: (job, _args, context) => postingOf(job, context),
  roleData: (job, _args, context) => postingOf(job, context),
};

export const EmployerJobSeatsConnection: EmployerJobSeatsConnectionResolvers = {
  seats: ({ posting }) => (posting ? [posting] : []),
};

export const EmployerJobSeat: EmployerJobSeatResolvers = {
  jobPost: (posting) => posting,
  campaignCategories: () => [],
  rawLocation: (posting) =>
    posting.content.location.cityRegionPostal ?? posting.content.location.country,
};

export const EmployerJobManagementUrls: EmployerJobManagementUrlsResolvers<JobSyncContext> = {
  // The posting app's Job postings tab, at the posting's row; a posting of another app of the
  // employer (reads see them all) has no page its caller may open: the console's dashboard.
  viewJob: (posting, _args, context) =>
    posting.appId === context.principal.appId
      ? `${context.jobSync.publicUrl}/console/apps/${encodeURIComponent(context.principal.clientId)}/postings#posting-${posting.sourcedPostingId}`
      : `${context.jobSync.publicUrl}/console`,
};

export const EmployerJobData: EmployerJobDataResolvers<JobSyncContext> = {
  title: (posting) => posting.content.title,
  dateCreated: (posting) => utc(posting.createdAt),
  company: (posting) => posting.content.jobSource.companyName,
  externalJobPageUrl: (posting) => posting.content.url,
  datePostedOnIndeed: (posting, _args, context) =>
    lifecycleAt(posting, context.jobSync.now) === 'PENDING' ? null : utc(posting.activeFrom),
  salary: (posting) => posting.content.salary,
  jobLocation: (posting) => posting,
  externalPostingMetadata: (posting) => posting,
};

/** Minor units in major ones, by the currency's number of decimals (2 for USD, 0 for JPY). */
function major(minor: string, currency: string): number {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return Number(minor) / 10 ** digits;
}

export const EmployerJobSalary: EmployerJobSalaryResolvers = {
  period: (salary) => salary.period,
  minimumMinor: (salary) => salary.minimumMinor,
  maximumMinor: (salary) => salary.maximumMinor,
  currency: (salary) => salary.currency,
  minimumMajor: (salary) => major(salary.minimumMinor, salary.currency),
  maximumMajor: (salary) =>
    salary.maximumMinor === null ? null : major(salary.maximumMinor, salary.currency),
  basePaySpecified: () => true,
};

export const EmployerJobLocation: EmployerJobLocationResolvers = {
  countryCode: (posting) => posting.content.location.country,
  city: (posting) => posting.content.location.cityRegionPostal?.split(',')[0]?.trim() || null,
  postalCode: (posting) => {
    const last = posting.content.location.cityRegionPostal?.split(',').at(-1)?.trim();
    return last && /\d/.test(last) ? last : null;
  },
  fullAddress: (posting) => {
    const { streetAddress, cityRegionPostal, country } = posting.content.location;
    return [streetAddress, cityRegionPostal, country].filter(Boolean).join(', ');
  },
};

export const EmployerJobExternalPostingMetadata: EmployerJobExternalPostingMetadataResolvers = {
  jobPostingId: (posting) => posting.content.jobPostingId,
  jobRequisitionId: (posting) => posting.content.jobRequisitionId,
  campaignCategories: () => [],
  trackingUrls: () => [],
  rawInputLocation: (posting) => posting.content.location.cityRegionPostal,
  isIntegratedJob: () => true,
};

export const EmployerJobRoleData: EmployerJobRoleDataResolvers = {
  title: (posting) => posting.content.title,
  company: (posting) => posting.content.jobSource.companyName,
  description: (posting) => posting,
  metaData: (posting) => posting,
};

export const EmployerJobDescription: EmployerJobDescriptionResolvers = {
  text: (posting) => posting.content.description,
};

export const EmployerJobRoleMetaData: EmployerJobRoleMetaDataResolvers = {
  dateCreated: (posting) => utc(posting.createdAt),
  isExternalIntegratedJob: () => true,
};
