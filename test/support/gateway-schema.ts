import { graphqlApis } from '../../src/apis.js';
import { composeApis } from '../../src/graphql/api-registry.js';
import type { DispositionSyncCapability } from '../../src/disposition-sync/compose.js';
import type { JobSearchCapability } from '../../src/job-search/compose.js';
import type { Interviews } from '../../src/interviews/compose.js';
import type { Webhooks } from '../../src/webhooks/compose.js';
import type { JobSync } from '../../src/job-sync/compose.js';
import type { EmployerData } from '../../src/employer-data/compose.js';

/**
 * The gateway's schema and list sizes over every registered API, as composeGraphQL builds them,
 * for tests that validate, price or resolve without a request context (no API service is
 * reached: createContext is never called).
 */
export const gatewayApis = composeApis(
  graphqlApis({
    interviews: {} as Interviews,
    webhooks: {} as Webhooks,
    dispositionSync: {} as DispositionSyncCapability,
    jobSearch: {} as JobSearchCapability,
    jobSync: {} as JobSync,
    employerData: {} as EmployerData,
    publicUrl: 'http://127.0.0.1',
  }),
);
