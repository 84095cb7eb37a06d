import type { Router } from 'express';
import type { PostEndpoint } from '../http/endpoint.js';
import type { Interviews } from '../interviews/compose.js';
import type { InterviewContext, InterviewServices } from '../interviews/context.js';
import { interviewResolvers } from '../interviews/resolvers/index.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import type { ContextFactory } from './context.js';
import { graphqlGateway, type BearerAuthenticator } from './gateway.js';
import { buildSchema } from './schema.js';

/** The GraphQL gateway at /graphql on API_URL, serving the Interview API. */
export interface GraphQL {
  router(): Router;
  /** POST /graphql, also mounted by router(), for the fast listener. */
  endpoint: PostEndpoint;
}

export function composeGraphQL(
  shared: SharedDependencies,
  deps: {
    interviews: Interviews;
    /** Verifies bearer tokens: the authorization server's verifier, or a test's stand-in. */
    authenticate: BearerAuthenticator;
  },
): GraphQL {
  const { config, logger } = shared;
  const { interviews, authenticate } = deps;
  const services: InterviewServices = {
    writer: interviews.writer,
    finder: interviews.finder,
  };
  const createContext: ContextFactory<InterviewContext> = (request) => ({
    ...request,
    loaders: interviews.createLoaders(),
    interviews: services,
    settle: interviews.settleNow(),
  });
  const gateway = graphqlGateway({
    schema: buildSchema(interviewResolvers),
    authenticate,
    createContext,
    limits: config.graphql,
    bodyLimitBytes: config.bodyLimitBytes,
    logger,
  });
  return { router: () => gateway.router, endpoint: gateway.endpoint };
}
