import type { MergedResolvers, ResolvingEverything } from './graphql/api.js';
import type { Interviews } from './interviews/compose.js';
import { interviewApi } from './interviews/graphql-api.js';
import type { Webhooks } from './webhooks/compose.js';
import { webhooksApi } from './webhooks/graphql/webhooks-api.js';

/**
 * The APIs behind the GraphQL gateway, each with its SDL file under schema/. Adding an API is
 * adding its folder, its schema/<api>.graphql and its registration here.
 */
export function graphqlApis(deps: {
  interviews: Interviews;
  webhooks: Pick<Webhooks, 'endpoints' | 'deliveryLog'>;
}) {
  return [interviewApi(deps.interviews), webhooksApi(deps.webhooks)] as const;
}

/**
 * Fails to compile, naming the type or field, when the registered APIs leave part of the merged
 * schema (generated/graphql.ts) without a resolver; composeGraphQL checks the same at startup
 * against the SDL files, with ownership (test/graphql/api-registry.test.ts).
 */
export type RegisteredResolvers = ResolvingEverything<
  MergedResolvers<ReturnType<typeof graphqlApis>>
>;
