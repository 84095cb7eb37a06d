import type { PageInfoResolvers, Resolvers } from '../../generated/graphql.js';
import { scalarResolvers, type CustomScalarName } from './scalars/index.js';

/** The types of schema/common.graphql the gateway resolves itself, for every API. */
export type CommonResolvedType = CustomScalarName | 'PageInfo';

/** Each API's connections build their PageInfo whole; it is only read back. */
const PageInfo: PageInfoResolvers = {
  hasNextPage: (page) => page.hasNextPage,
  hasPreviousPage: (page) => page.hasPreviousPage,
  startCursor: (page) => page.startCursor,
  endCursor: (page) => page.endCursor,
};

/** The resolvers of schema/common.graphql: the custom scalars and PageInfo. */
export const commonResolvers = {
  ...scalarResolvers,
  PageInfo,
} satisfies Pick<Resolvers, CommonResolvedType>;
