import type { ApiAccess, GraphQLApi } from '../graphql/api.js';
import type { Interviews } from './compose.js';
import type { InterviewContextPart, InterviewServices } from './context.js';
import { interviewResolvers } from './resolvers/index.js';

/** The name the gateway registers the Interview API under (schema/interview.graphql). */
export const INTERVIEW_API = 'interview';

/**
 * Every app may use it unless its owner disables it: apps registered before access per API
 * existed keep working. Its operations act for an employer, and an employer-scoped token always
 * carries employer_access (the token endpoint refuses `employer` without it).
 */
export const INTERVIEW_API_ACCESS: ApiAccess = {
  title: 'Interview API',
  scopes: ['employer_access'],
  enabledByDefault: true,
};

/** The Interview API behind the gateway: schema/interview.graphql and its resolvers. */
export function interviewApi(
  interviews: Interviews,
): GraphQLApi<InterviewContextPart, typeof interviewResolvers> {
  const services: InterviewServices = { writer: interviews.writer, finder: interviews.finder };
  return {
    name: INTERVIEW_API,
    access: INTERVIEW_API_ACCESS,
    resolvers: interviewResolvers,
    createContext: () => ({
      loaders: interviews.createLoaders(),
      interviews: services,
      settle: interviews.settleNow(),
    }),
  };
}
