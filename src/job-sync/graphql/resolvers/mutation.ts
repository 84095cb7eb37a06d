import type {
  CreateSourcedJobPostingsInput,
  JobsIngestMutationsResolvers,
  MutationResolvers,
} from '../../../../generated/graphql.js';
import { ValidationError } from '../../../errors.js';
import { postingOwner } from '../caller.js';
import type { JobSyncContext } from '../context.js';
import type { CreateResultsParent } from '../parents.js';

async function createPostings(
  input: CreateSourcedJobPostingsInput | null | undefined,
  context: JobSyncContext,
): Promise<CreateResultsParent> {
  const owner = postingOwner(context);
  if (!input) throw new ValidationError('input is required', 'input');
  return { results: await context.jobSync.writer.createOrUpdate(owner, input.jobPostings) };
}

/** Job Sync's root mutations: the `jobsIngest` namespace and the older root form. */
export const Mutation: Pick<
  MutationResolvers<JobSyncContext>,
  'jobsIngest' | 'createSourcedJobPostings'
> = {
  jobsIngest: () => ({}),
  createSourcedJobPostings: (_root, { input }, context) => createPostings(input, context),
};

export const JobsIngestMutations: JobsIngestMutationsResolvers<JobSyncContext> = {
  createSourcedJobPostings: (_parent, { input }, context) => createPostings(input, context),
  expireSourcedJobsBySourcedPostingId: async (_parent, { input }, context) => {
    const owner = postingOwner(context);
    const ids = input.jobs.map((job) => job.sourcedPostingId);
    return { results: await context.jobSync.writer.expire(owner, ids) };
  },
};
