import type { MergedResolvers, ResolvingEverything } from './graphql/api.js';
import type { KnownApi } from './accounts/api-catalogue.js';
import type { DispositionSyncCapability } from './disposition-sync/compose.js';
import {
  DISPOSITION_SYNC_API,
  DISPOSITION_SYNC_API_ACCESS,
  dispositionSyncApi,
} from './disposition-sync/graphql/graphql-api.js';
import type { Interviews } from './interviews/compose.js';
import type { JobSearchCapability } from './job-search/compose.js';
import {
  JOB_SEARCH_API,
  JOB_SEARCH_API_ACCESS,
  jobSearchApi,
} from './job-search/graphql/job-search-api.js';
import { INTERVIEW_API, INTERVIEW_API_ACCESS, interviewApi } from './interviews/graphql-api.js';
import type { EmployerData } from './employer-data/compose.js';
import {
  EMPLOYER_DATA_API,
  EMPLOYER_DATA_API_ACCESS,
  employerDataApi,
} from './employer-data/graphql/employer-data-api.js';
import type { JobSync } from './job-sync/compose.js';
import { JOB_SYNC_API } from './job-sync/graphql/caller.js';
import { JOB_SYNC_API_ACCESS, jobSyncApi } from './job-sync/graphql/job-sync-api.js';
import type { Webhooks } from './webhooks/compose.js';
import { WEBHOOKS_API } from './webhooks/graphql/caller.js';
import { WEBHOOKS_API_ACCESS, webhooksApi } from './webhooks/graphql/webhooks-api.js';

/**
 * The APIs behind the GraphQL gateway, each with its SDL file under schema/. Adding an API is
 * adding its folder, its schema/<api>.graphql and its registration here.
 */
export function graphqlApis(deps: {
  interviews: Interviews;
  webhooks: Pick<Webhooks, 'endpoints' | 'deliveryLog'>;
  dispositionSync: DispositionSyncCapability;
  jobSearch: Pick<JobSearchCapability, 'search'>;
  jobSync: JobSync;
  employerData: EmployerData;
  /** PUBLIC_URL: base of the console pages the APIs link to. */
  publicUrl: string;
}) {
  return [
    interviewApi(deps.interviews),
    webhooksApi(deps.webhooks),
    dispositionSyncApi(deps.dispositionSync),
    jobSearchApi(deps.jobSearch.search),
    jobSyncApi(deps.jobSync, deps.publicUrl),
    employerDataApi(deps.employerData),
  ] as const;
}

/**
 * The same APIs by name with who may use them, for the accounts capability (an app is enabled
 * per API: console, CLI), which the server and the CLI compose without the APIs themselves.
 * test/graphql/api-access.test.ts checks it against the registrations.
 */
export const API_CATALOGUE: readonly KnownApi[] = [
  { name: INTERVIEW_API, ...INTERVIEW_API_ACCESS },
  { name: WEBHOOKS_API, ...WEBHOOKS_API_ACCESS },
  { name: DISPOSITION_SYNC_API, ...DISPOSITION_SYNC_API_ACCESS },
  { name: JOB_SEARCH_API, ...JOB_SEARCH_API_ACCESS },
  { name: JOB_SYNC_API, ...JOB_SYNC_API_ACCESS },
  { name: EMPLOYER_DATA_API, ...EMPLOYER_DATA_API_ACCESS },
];

/**
 * Fails to compile, naming the type or field, when the registered APIs leave part of the merged
 * schema (generated/graphql.ts) without a resolver; composeGraphQL checks the same at startup
 * against the SDL files, with ownership (test/graphql/api-registry.test.ts).
 */
export type RegisteredResolvers = ResolvingEverything<
  MergedResolvers<ReturnType<typeof graphqlApis>>
>;
