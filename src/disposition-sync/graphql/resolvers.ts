import { GraphQLError } from 'graphql';
import type {
  MutationResolvers,
  PartnerDispositionMutationResolvers,
  QueryResolvers,
} from '../../../generated/graphql.js';
import type { ApiResolvers, GatewayContext } from '../../graphql/api.js';
import type { DispositionOwner } from '../disposition.js';
import { DispositionRefused } from '../refusal.js';
import type { DispositionContext } from './context.js';
import * as types from './types.js';

/** The app and the employer of the token (none for an app's own token). */
function ownerOf({ principal }: GatewayContext): DispositionOwner {
  return { appId: principal.appId, employerId: principal.employerId };
}

const Query: Pick<QueryResolvers<DispositionContext>, 'partnerDispositions'> = {
  partnerDispositions: (_root, page, context) => context.dispositions.page(ownerOf(context), page),
};

const Mutation: Pick<MutationResolvers<DispositionContext>, 'partnerDisposition'> = {
  // The gateway has checked the scope and the app's access on this root field already.
  partnerDisposition: () => ({}),
};

const PartnerDispositionMutation: PartnerDispositionMutationResolvers<DispositionContext> = {
  send: async (_namespace, { input }, context) => {
    try {
      return await context.dispositions.send(ownerOf(context), input.dispositions);
    } catch (error) {
      if (!(error instanceof DispositionRefused)) throw error;
      throw refusal(error);
    }
  },
};

/**
 * A refused request as the platform reports validation errors: `BAD_USER_INPUT`, the message
 * alone, and where the offending value is in `extensions.classification.validatedPath`.
 */
function refusal(error: DispositionRefused): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: {
      code: 'BAD_USER_INPUT',
      classification: {
        type: 'ExtendedValidationError',
        validatedPath: ['partnerDisposition', 'send', 'input', ...error.path],
      },
    },
  });
}

/** Every resolver of Disposition Sync (schema/disposition-sync.graphql). */
export const dispositionResolvers = {
  Query,
  Mutation,
  PartnerDispositionMutation,
  ...types,
} satisfies ApiResolvers<DispositionContext>;
