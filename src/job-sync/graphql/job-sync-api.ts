import DataLoader from 'dataloader';
import type { ApiAccess, GraphQLApi } from '../../graphql/api.js';
import type { JobSync } from '../compose.js';
import { JOB_SYNC_API } from './caller.js';
import type { JobSyncContextPart } from './context.js';
import { jobSyncResolvers } from './resolvers/index.js';

/**
 * Off until an app's owner enables it (console, CLI), as the platform grants Job Sync per app;
 * its operations act for an employer, with `employer_access`.
 */
export const JOB_SYNC_API_ACCESS: ApiAccess = {
  title: 'Job Sync API',
  scopes: ['employer_access'],
  enabledByDefault: false,
};

/** Job Sync behind the gateway: schema/job-sync.graphql and its resolvers. */
export function jobSyncApi(
  jobSync: JobSync,
  publicUrl: string,
): GraphQLApi<JobSyncContextPart, typeof jobSyncResolvers> {
  return {
    name: JOB_SYNC_API,
    access: JOB_SYNC_API_ACCESS,
    resolvers: jobSyncResolvers,
    // A batch of 100 postings with long descriptions is far past BODY_LIMIT_BYTES.
    largeBodyRootFields: ['Mutation.jobsIngest', 'Mutation.createSourcedJobPostings'],
    createContext: (request) => ({
      jobSync: {
        writer: jobSync.writer,
        postings: new DataLoader(async (ids: readonly string[]) => {
          const employerId = request.principal.employerId;
          if (!employerId) return ids.map(() => null);
          const found = await jobSync.reader.ofEmployer(employerId, ids);
          return ids.map((id) => found.get(id) ?? null);
        }),
        now: jobSync.now(),
        publicUrl,
      },
    }),
  };
}
