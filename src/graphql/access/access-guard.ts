import {
  defaultFieldResolver,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { GatewayContext, Principal } from '../context.js';
import type { AppAccessFacts } from './app-access-facts.js';
import { missingScopes, notEnabled, type GuardedApi } from './refusals.js';

type Resolver = GraphQLFieldResolver<unknown, unknown>;

/**
 * Checks, on every root field, that the caller may use the API the field belongs to (DESIGN §9):
 * the token carries the API's scopes and the app is enabled for it. A field it may not use
 * answers null with `FORBIDDEN` and `extensions.api`; the rest of the document runs. The check
 * sits in the root fields' resolvers, so graphql-js and compiled queries
 * (compiled-execution.ts) both make it, and a refused mutation writes nothing.
 *
 * `apiOfRootField` maps `Query.field` / `Mutation.field` to the API whose SDL module adds it
 * (root fields of no API are left alone). Changes the schema's resolvers in place.
 */
export function guardApiAccess(
  schema: GraphQLSchema,
  apiOfRootField: ReadonlyMap<string, GuardedApi>,
  facts: AppAccessFacts,
): GraphQLSchema {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  for (const type of roots.filter((root): root is GraphQLObjectType => Boolean(root))) {
    for (const field of Object.values(type.getFields())) {
      const api = apiOfRootField.get(`${type.name}.${field.name}`);
      if (api) field.resolve = guarded(field.resolve ?? defaultFieldResolver, api, facts);
    }
  }
  return schema;
}

function guarded(resolve: Resolver, api: GuardedApi, facts: AppAccessFacts): Resolver {
  return (source, args, context, info) => {
    const { principal } = context as GatewayContext;
    const missing = api.scopes.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length) throw missingScopes(api, missing);
    const enabled = facts.isEnabled(principal.appId, api.name, principal.accountsEpoch);
    if (enabled === true) return resolve(source, args, context, info);
    return confirmed(enabled, principal, api, facts).then(() =>
      resolve(source, args, context, info),
    );
  };
}

/** Resolves when the app may use the API after all (enabled since, anywhere); else rejects. */
async function confirmed(
  enabled: boolean | Promise<boolean>,
  principal: Principal,
  api: GuardedApi,
  facts: AppAccessFacts,
): Promise<void> {
  if (await enabled) return;
  if (await facts.isEnabledNow(principal.appId, api.name)) return;
  throw notEnabled(api);
}
