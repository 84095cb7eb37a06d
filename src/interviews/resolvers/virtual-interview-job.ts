import type {
  EmployerJobResolvers,
  VirtualInterviewJobInfo as JobInfo,
  VirtualInterviewJobInfoResolvers,
  VirtualInterviewJobResolvers,
} from '../../../generated/graphql.js';
import { passThrough } from './fields.js';

export const VirtualInterviewJob: VirtualInterviewJobResolvers = {
  __resolveType: (job) => ('id' in job ? 'EmployerJob' : 'VirtualInterviewJobInfo'),
};

export const EmployerJob: EmployerJobResolvers = { id: (job) => job.id };

export const VirtualInterviewJobInfo: VirtualInterviewJobInfoResolvers = passThrough<JobInfo>()(
  'title',
  'location',
);
