import type {
  JobPostGlobalStatusResolvers,
  JobPostResolvers,
  JobPostStatusResolvers,
  JobPostSurfaceStatusResolvers,
} from '../../../../generated/graphql.js';
import { ValidationError } from '../../../errors.js';
import { lifecycleAt } from '../../posting.js';
import type { JobSyncContext } from '../context.js';
import { MAX_SURFACES } from '../list-bounds.js';

export const JobPost: JobPostResolvers<JobSyncContext> = {
  id: (posting) => posting.employerJobId,
  status: (posting, { input }, context) => {
    const asked = input?.surfaceContexts?.map((surface) => surface.placementId.trim()) ?? [];
    if (asked.length > MAX_SURFACES) {
      throw new ValidationError(
        `surfaceContexts holds more than ${MAX_SURFACES} surfaces`,
        'surfaceContexts',
      );
    }
    // Without surfaces, the default one: INDEED (platform-apis.md §3.5).
    const surfaces = asked.length ? asked : ['INDEED'];
    return { posting, now: context.jobSync.now, surfaces };
  },
};

export const JobPostStatus: JobPostStatusResolvers = {
  globalStatus: (status) => status,
  surfaceStatuses: (status) => status.surfaces.map((placementId) => ({ placementId })),
};

export const JobPostGlobalStatus: JobPostGlobalStatusResolvers = {
  lifecycleStatus: ({ posting, now }) => lifecycleAt(posting, now),
  isIndeedApplyActive: ({ posting, now }) =>
    posting.content.indeedApply !== null && lifecycleAt(posting, now) === 'ACTIVE',
};

export const JobPostSurfaceStatus: JobPostSurfaceStatusResolvers = {
  placementId: (surface) => surface.placementId,
  isRejected: () => false,
  isSponsorshipRequired: () => false,
  isMissingRequiredSponsorship: () => false,
};
