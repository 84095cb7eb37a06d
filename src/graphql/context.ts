import type { Logger } from 'pino';
import type { Principal } from '../oauth/principal.js';
import type { AnswerBudget } from './limits/answer-size.js';

export type { Principal };

/**
 * What the gateway establishes for every request, whatever API it serves: the request id, its
 * logger, the verified caller and the budget its answer is counted against. The API capability extends it with its own services (the
 * Interview API's context is `InterviewContext`, in src/interviews/context.ts), so this module
 * depends on no API. A `type` alias (not an interface) on purpose: graphql-http's handler generics
 * reject interfaces as context types.
 */
export type GatewayContext = {
  requestId: string;
  logger: Logger;
  principal: Principal;
  answer: AnswerBudget;
};

/** Builds the context of one request once its bearer token has been verified. */
export type ContextFactory<Context extends GatewayContext = GatewayContext> = (
  request: GatewayContext,
) => Context;
