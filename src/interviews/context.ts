import type { GatewayContext } from '../graphql/api.js';
import type { EventFinder } from './event-finder.js';
import type { EventWriter } from './event-writer.js';
import type { Settle } from './lifecycle/settle.js';
import type { InterviewLoaders } from './loaders.js';

/** What the Interview API adds to the gateway's context of each request (graphql-api.ts). */
export type InterviewContextPart = {
  loaders: InterviewLoaders;
  interviews: InterviewServices;
  /** Statuses settled by the clock at the start of the request (time-driven transitions). */
  settle: Settle;
};

/**
 * Per-request context of the Interview API's resolvers: what the gateway establishes for every
 * request, plus this API's loaders and services. A `type` alias (not an interface), like the
 * gateway's, for graphql-http's handler generics.
 */
export type InterviewContext = GatewayContext & InterviewContextPart;

/** The Interview API's services; shared by all requests (they hold no per-request state). */
export type InterviewServices = {
  writer: EventWriter;
  finder: EventFinder;
};
