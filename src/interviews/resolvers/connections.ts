import type {
  ResolversParentTypes as Parents,
  VirtualInterviewEventEdgeResolvers,
  VirtualInterviewEventsConnectionResolvers,
  VirtualInterviewIntervieweeEdgeResolvers,
  VirtualInterviewIntervieweesConnectionResolvers,
  VirtualInterviewInterviewerEdgeResolvers,
  VirtualInterviewInterviewersConnectionResolvers,
  VirtualInterviewOutcomeEdgeResolvers,
  VirtualInterviewOutcomesConnectionResolvers,
  VirtualInterviewRecordEdgeResolvers,
  VirtualInterviewRecordsConnectionResolvers,
} from '../../../generated/graphql.js';
import { passThrough } from './fields.js';

// Connections and edges are built whole by the fields that return them; these resolvers only
// read them back (except an event page's totalCount, counted when selected). Their PageInfo is
// read back by the gateway (src/graphql/common-resolvers.ts), as for every API.

export const VirtualInterviewEventsConnection: VirtualInterviewEventsConnectionResolvers = {
  ...passThrough<Parents['VirtualInterviewEventsConnection']>()('edges', 'events', 'pageInfo'),
  totalCount: (page) => page.countMatching(),
};
export const VirtualInterviewEventEdge: VirtualInterviewEventEdgeResolvers = passThrough<
  Parents['VirtualInterviewEventEdge']
>()('node', 'cursor');

export const VirtualInterviewInterviewersConnection: VirtualInterviewInterviewersConnectionResolvers =
  passThrough<Parents['VirtualInterviewInterviewersConnection']>()(
    'edges',
    'interviewers',
    'pageInfo',
    'totalCount',
  );
export const VirtualInterviewInterviewerEdge: VirtualInterviewInterviewerEdgeResolvers =
  passThrough<Parents['VirtualInterviewInterviewerEdge']>()('node', 'cursor');

export const VirtualInterviewIntervieweesConnection: VirtualInterviewIntervieweesConnectionResolvers =
  passThrough<Parents['VirtualInterviewIntervieweesConnection']>()(
    'edges',
    'interviewees',
    'pageInfo',
    'totalCount',
  );
export const VirtualInterviewIntervieweeEdge: VirtualInterviewIntervieweeEdgeResolvers =
  passThrough<Parents['VirtualInterviewIntervieweeEdge']>()('node', 'cursor');

export const VirtualInterviewRecordsConnection: VirtualInterviewRecordsConnectionResolvers =
  passThrough<Parents['VirtualInterviewRecordsConnection']>()('edges', 'records', 'pageInfo');
export const VirtualInterviewRecordEdge: VirtualInterviewRecordEdgeResolvers = passThrough<
  Parents['VirtualInterviewRecordEdge']
>()('node', 'cursor');

export const VirtualInterviewOutcomesConnection: VirtualInterviewOutcomesConnectionResolvers =
  passThrough<Parents['VirtualInterviewOutcomesConnection']>()('edges', 'outcomes', 'pageInfo');
export const VirtualInterviewOutcomeEdge: VirtualInterviewOutcomeEdgeResolvers = passThrough<
  Parents['VirtualInterviewOutcomeEdge']
>()('node', 'cursor');
