import type { GraphQLApi } from '../graphql/api.js';
import type { Interviews } from './compose.js';
import type { InterviewContextPart, InterviewServices } from './context.js';
import { interviewResolvers } from './resolvers/index.js';

/** The Interview API behind the gateway: schema/interview.graphql and its resolvers. */
export function interviewApi(
  interviews: Interviews,
): GraphQLApi<InterviewContextPart, typeof interviewResolvers> {
  const services: InterviewServices = { writer: interviews.writer, finder: interviews.finder };
  return {
    name: 'interview',
    resolvers: interviewResolvers,
    createContext: () => ({
      loaders: interviews.createLoaders(),
      interviews: services,
      settle: interviews.settleNow(),
    }),
  };
}
