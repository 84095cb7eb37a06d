import type { MutationResolvers } from '../../../generated/graphql.js';
import { requireEmployer } from './employer-scope.js';
import { notServedYet } from './not-served-yet.js';

export const Mutation: MutationResolvers = {
  createVirtualInterviewEvent: (_root, _args, context) => {
    requireEmployer(context);
    return notServedYet('createVirtualInterviewEvent');
  },
  updateVirtualInterviewEvent: (_root, _args, context) => {
    requireEmployer(context);
    return notServedYet('updateVirtualInterviewEvent');
  },
  cancelVirtualInterviewEvent: (_root, _args, context) => {
    requireEmployer(context);
    return notServedYet('cancelVirtualInterviewEvent');
  },
};
