import type { GatewayContext } from '../../graphql/api.js';
import type { JobSearch } from '../job-search.js';

/** What the job search API adds to the gateway's context of each request. */
export type JobSearchContextPart = { jobSearch: JobSearch };

/** Per-request context of the job search API's resolvers (a `type`, like the gateway's). */
export type JobSearchContext = GatewayContext & JobSearchContextPart;
