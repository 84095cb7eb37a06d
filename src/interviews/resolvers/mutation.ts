import { GraphQLError } from 'graphql';
import type { MutationResolvers } from '../../../generated/graphql.js';
import type { Principal } from '../../oauth/principal.js';
import type { InterviewContext } from '../context.js';
import { CreatorGoneError, type EventCreator } from '../event-writer.js';
import { requireEmployer } from './employer-scope.js';

/** The Interview API's changes (other APIs add theirs to Mutation; src/apis.ts checks all are there). */
export const Mutation: Pick<
  MutationResolvers<InterviewContext>,
  'createVirtualInterviewEvent' | 'updateVirtualInterviewEvent' | 'cancelVirtualInterviewEvent'
> = {
  createVirtualInterviewEvent: async (_root, { input }, context) => {
    const employerId = requireEmployer(context);
    try {
      const event = await context.interviews.writer.create(
        employerId,
        creatorOf(context.principal),
        input,
      );
      return { event };
    } catch (error) {
      if (!(error instanceof CreatorGoneError)) throw error;
      throw new GraphQLError(`The access token is no longer valid: ${error.message}`, {
        extensions: { code: 'UNAUTHENTICATED' },
      });
    }
  },
  updateVirtualInterviewEvent: async (_root, { input }, context) => ({
    event: await context.interviews.writer.update(requireEmployer(context), input),
  }),
  cancelVirtualInterviewEvent: async (_root, { input }, context) => ({
    event: await context.interviews.writer.cancel(requireEmployer(context), input.id),
  }),
};

/** The creator added to every new event: the signed-in user, or the app's owner. */
function creatorOf(principal: Principal): EventCreator {
  return principal.kind === 'user'
    ? { userId: principal.userId, appId: principal.appId }
    : { userId: principal.ownerUserId, appId: principal.appId };
}
