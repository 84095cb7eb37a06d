import type { Logger } from 'pino';
import type { EventFinder } from '../interviews/event-finder.js';
import type { InterviewScheduler } from '../interviews/interview-scheduler.js';
import type { Settle } from '../interviews/lifecycle/settle.js';
import type { InterviewLoaders } from '../interviews/loaders.js';

import type { Principal } from '../oauth/principal.js';

export type { Principal };

/**
 * Per-request GraphQL context. A `type` alias (not an interface) on purpose: graphql-http's
 * handler generics reject interfaces as context types.
 */
export type GraphQLContext = {
  requestId: string;
  logger: Logger;
  principal: Principal;
  loaders: InterviewLoaders;
  interviews: InterviewServices;
  /** Statuses settled by the clock at the start of the request (time-driven transitions). */
  settle: Settle;
};

/** The Interview API's services; shared by all requests (they hold no per-request state). */
export type InterviewServices = {
  scheduler: InterviewScheduler;
  finder: EventFinder;
};

/** Builds the context of one request once its bearer token has been verified. */
export type ContextFactory = (request: {
  requestId: string;
  logger: Logger;
  principal: Principal;
}) => GraphQLContext;
