import type { GatewayContext } from '../../graphql/api.js';
import type { DispositionSync } from '../disposition-sync.js';

/** What Disposition Sync adds to the gateway's context of each request. */
export type DispositionContextPart = { dispositions: DispositionSync };

/** Per-request context of Disposition Sync's resolvers (a `type`, like the gateway's). */
export type DispositionContext = GatewayContext & DispositionContextPart;
