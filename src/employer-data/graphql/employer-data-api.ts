import { GraphQLError } from 'graphql';
import type {
  AttributeUpdateErrorResolvers,
  MutationResolvers,
  PatchEmployerPayloadResolvers,
} from '../../../generated/graphql.js';
import type { ApiAccess, ApiResolvers, GatewayContext, GraphQLApi } from '../../graphql/api.js';
import type { EmployerData } from '../compose.js';
import { ProtectedEmployer, type PatchingApp } from '../employer-patcher.js';
import { websiteRefusal, WebsiteProblem } from '../employer-rules.js';

/** The name the gateway registers Employer Data under (schema/employer-data.graphql). */
export const EMPLOYER_DATA_API = 'employer-data';

/**
 * Off until an app's owner enables it (the platform grants "employer create/update" per app at
 * onboarding); no scope, as on the platform.
 */
export const EMPLOYER_DATA_API_ACCESS: ApiAccess = {
  title: 'Employer Data API',
  scopes: [],
  enabledByDefault: false,
};

export type EmployerDataContextPart = { employerData: Pick<EmployerData, 'patcher'> };
export type EmployerDataContext = GatewayContext & EmployerDataContextPart;

/** The partner calling: an app's own client-credentials token; any other is refused. */
function patchingApp({ principal }: GatewayContext): PatchingApp {
  if (principal.kind !== 'app') {
    throw new GraphQLError(
      "Client is not authorized: the Employer Data API needs the app's client-credentials " +
        'token, not a token issued to a user.',
      { extensions: { code: 'FORBIDDEN', api: EMPLOYER_DATA_API } },
    );
  }
  return { appId: principal.appId, ownerUserId: principal.ownerUserId };
}

const Mutation: Pick<MutationResolvers<EmployerDataContext>, 'patchEmployer'> = {
  patchEmployer: async (_root, { input }, context) => {
    const app = patchingApp(context);
    try {
      return await context.employerData.patcher.patch(app, input);
    } catch (error) {
      if (error instanceof WebsiteProblem) throw websiteRefusal(error.index);
      if (error instanceof ProtectedEmployer) {
        throw new GraphQLError(error.message, {
          extensions: { code: 'FORBIDDEN', serviceName: 'company-data-api' },
        });
      }
      throw error;
    }
  },
};

// Never built: problems come as GraphQL errors (the list is always empty).
const AttributeUpdateError: AttributeUpdateErrorResolvers = {
  message: (error) => error.message,
  detail: (error) => error.detail,
  suggestion: (error) => error.suggestion,
};

const PatchEmployerPayload: PatchEmployerPayloadResolvers = {
  responseCode: () => 'OK',
  attributeUpdated: (outcome) => outcome.changed,
  errors: () => [],
  employerKey: (outcome) => outcome.employerKey,
};

export const employerDataResolvers = {
  Mutation,
  PatchEmployerPayload,
  AttributeUpdateError,
} satisfies ApiResolvers<EmployerDataContext>;

/** The Employer Data API behind the gateway: schema/employer-data.graphql and its resolver. */
export function employerDataApi(
  employerData: EmployerData,
): GraphQLApi<EmployerDataContextPart, typeof employerDataResolvers> {
  const part = { employerData: { patcher: employerData.patcher } };
  return {
    name: EMPLOYER_DATA_API,
    access: EMPLOYER_DATA_API_ACCESS,
    resolvers: employerDataResolvers,
    createContext: () => part,
  };
}
