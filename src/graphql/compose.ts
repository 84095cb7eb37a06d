import { Router } from 'express';
import type { PostEndpoint } from '../http/endpoint.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import { guardApiAccess } from './access/access-guard.js';
import type { AppAccessFacts } from './access/app-access-facts.js';
import type { GraphQLApi } from './api.js';
import { composeApis } from './api-registry.js';
import type { CostAdmission } from './budget/cost-budget.js';
import { graphqlGateway, type BearerAuthenticator } from './gateway.js';
import { composePersistedDocuments } from './persisted/compose.js';
import { schemaDownloadRouter } from './schema-download.js';

/** The GraphQL gateway at /graphql on API_URL, and its merged SDL at /schema.graphql. */
export interface GraphQL {
  router(): Router;
  /** POST /graphql, also mounted by router(), for the fast listener. */
  endpoint: PostEndpoint;
}

export function composeGraphQL(
  shared: SharedDependencies,
  deps: {
    /** The APIs behind the gateway (src/apis.ts). */
    apis: readonly GraphQLApi[];
    /** Verifies bearer tokens: the authorization server's verifier, or a test's stand-in. */
    authenticate: BearerAuthenticator;
    /** Which app may use which API (the accounts capability's cache). */
    access: AppAccessFacts;
    /** The rolling cost budget per client (src/cost-budgets/); none when budgets are off. */
    budgets?: CostAdmission;
  },
): GraphQL {
  const { config, logger } = shared;
  const { schema, createContext, apiOfRootField } = composeApis(deps.apis);
  const gateway = graphqlGateway({
    schema: guardApiAccess(schema, apiOfRootField, deps.access),
    authenticate: deps.authenticate,
    createContext,
    persisted: composePersistedDocuments(shared),
    persistedOnly: config.persistedDocuments.only,
    ...(deps.budgets && { budgets: deps.budgets }),
    limits: config.graphql,
    bodyLimitBytes: config.bodyLimitBytes,
    largeBodies: {
      limitBytes: config.jobSync.bodyLimitBytes,
      budgetBytes: config.jobSync.bodyBudgetBytes,
      rootFields: new Set(deps.apis.flatMap((api) => api.largeBodyRootFields ?? [])),
    },
    logger,
  });
  const router = Router();
  router.use(gateway.router, schemaDownloadRouter(schema));
  return { router: () => router, endpoint: gateway.endpoint };
}
