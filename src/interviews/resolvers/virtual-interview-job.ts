import type {
  VirtualInterviewJobInfo as JobInfo,
  VirtualInterviewJobInfoResolvers,
  VirtualInterviewJobResolvers,
} from '../../../generated/graphql.js';
import { passThrough } from './fields.js';

/**
 * An interviewee's job: a job of the employer by id, whose other fields Job Sync resolves from
 * the employer's posting (src/job-sync), or a job described in free text.
 */
export const VirtualInterviewJob: VirtualInterviewJobResolvers = {
  __resolveType: (job) => ('id' in job ? 'EmployerJob' : 'VirtualInterviewJobInfo'),
};

export const VirtualInterviewJobInfo: VirtualInterviewJobInfoResolvers = passThrough<JobInfo>()(
  'title',
  'location',
);
