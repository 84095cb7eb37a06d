import { GraphQLError } from 'graphql';
import type { QueryResolvers } from '../../../generated/graphql.js';
import type { InterviewContext } from '../context.js';
import { MAX_EVENT_IDS } from '../list-bounds.js';
import { isPossibleEventId } from '../rules/event-ids.js';
import { requireEmployer } from './employer-scope.js';
import { selectedEventParts } from './selected-parts.js';

/** The Interview API's reads (other APIs add theirs to Query; src/apis.ts checks all are there). */
export const Query: Pick<
  QueryResolvers<InterviewContext>,
  'findVirtualInterviewEvents' | 'virtualInterviewEvents'
> = {
  virtualInterviewEvents: async (_root, { input }, context, info) => {
    const employerId = requireEmployer(context);
    if (input.ids.length < 1 || input.ids.length > MAX_EVENT_IDS) {
      throw new GraphQLError(`input.ids must hold between 1 and ${MAX_EVENT_IDS} ids`, {
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    // One statement reads each distinct id once, with the lists the request selects (a repeated
    // id gets the same event in each of its places); a failed read rejects, so a failure is
    // reported rather than read as "not found". Another employer's event is not read at all:
    // it is indistinguishable from a missing one.
    const ids = [...new Set(input.ids.filter(isPossibleEventId))];
    const found =
      ids.length === 0
        ? new Map()
        : await context.loaders.eventGraphs(employerId, ids, selectedEventParts(info));
    return { events: input.ids.map((id) => found.get(id) ?? null) };
  },
  findVirtualInterviewEvents: async (_root, { first, after, input }, context, info) => {
    const employerId = requireEmployer(context);
    const parts = selectedEventParts(info);
    const page = await context.interviews.finder.find({ employerId, first, after, input, parts });
    // The page's nested fields read their event (and the lists read with it) by id: it is here.
    context.loaders.prime(page.graphs);
    return page;
  },
};
