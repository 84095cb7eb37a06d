import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { Resolvers } from '../../generated/graphql.js';
import type { GatewayContext } from './context.js';
import { scalarResolvers, type CustomScalarName } from './scalars/index.js';

/** Where schema.graphql is, seen from src/graphql/ (tsx) and from dist/src/graphql/ (build). */
const SCHEMA_FILE_CANDIDATES = [
  new URL('../../schema.graphql', import.meta.url),
  new URL('../../../schema.graphql', import.meta.url),
];

let typeDefs: string | undefined;

/** The text of schema.graphql at the repository root, read once. */
export function loadTypeDefs(): string {
  if (typeDefs === undefined) {
    const file = SCHEMA_FILE_CANDIDATES.find((candidate) => existsSync(candidate));
    if (!file) {
      const tried = SCHEMA_FILE_CANDIDATES.map((candidate) => fileURLToPath(candidate));
      throw new Error(`schema.graphql not found; looked at ${tried.join(', ')}`);
    }
    typeDefs = readFileSync(file, 'utf8');
  }
  return typeDefs;
}

/**
 * Resolvers for everything in schema.graphql except the custom scalars, which come built in,
 * over the context the API puts together for each request.
 */
export type SchemaResolvers<Context extends GatewayContext = GatewayContext> = Omit<
  Resolvers<Context>,
  CustomScalarName
>;

/** The executable schema: schema.graphql with the given resolvers and the custom scalars. */
export function buildSchema<Context extends GatewayContext>(
  resolvers: SchemaResolvers<Context>,
): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: loadTypeDefs(),
    resolvers: { ...resolvers, ...scalarResolvers },
  });
}
