import type { ApiAccess, GraphQLApi } from '../../graphql/api.js';
import type { JobSearch } from '../job-search.js';
import type { JobSearchContextPart } from './context.js';
import { jobSearchResolvers } from './resolvers.js';

/** The name the gateway registers this API under (schema/job-search.graphql). */
export const JOB_SEARCH_API = 'job-search';

/**
 * Off until an app's owner enables it (console, CLI), as the hosted platform's `jobSearch`
 * needs its `job-retrieval-service` entitlement. No scope: any access token of an enabled app
 * may search, since the postings it finds are public.
 */
export const JOB_SEARCH_API_ACCESS: ApiAccess = {
  title: 'Job search API',
  scopes: [],
  enabledByDefault: false,
};

/** The job search API behind the gateway (DESIGN §9, §10). */
export function jobSearchApi(
  search: JobSearch,
): GraphQLApi<JobSearchContextPart, typeof jobSearchResolvers> {
  return {
    name: JOB_SEARCH_API,
    access: JOB_SEARCH_API_ACCESS,
    resolvers: jobSearchResolvers,
    createContext: () => ({ jobSearch: search }),
  };
}
