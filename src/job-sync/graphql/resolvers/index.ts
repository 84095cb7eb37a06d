import type { ApiResolvers } from '../../../graphql/api.js';
import type { JobSyncContext } from '../context.js';
import * as employerJob from './employer-job.js';
import * as jobPost from './job-post.js';
import { JobsIngestMutations, Mutation } from './mutation.js';
import * as payloads from './payloads.js';
import { Node, Query } from './query.js';

/** Every resolver of Job Sync (schema/job-sync.graphql), typed by the generated resolvers. */
export const jobSyncResolvers = {
  Query,
  Mutation,
  Node,
  JobsIngestMutations,
  ...payloads,
  ...employerJob,
  ...jobPost,
} satisfies ApiResolvers<JobSyncContext>;
