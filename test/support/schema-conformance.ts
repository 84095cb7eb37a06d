import assert from 'node:assert/strict';
import { makeExecutableSchema } from '@graphql-tools/schema';
import {
  execute,
  GraphQLScalarType,
  getNamedType,
  isObjectType,
  isLeafType,
  isUnionType,
  parse,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { loadTypeDefs } from '../../src/graphql/schema.js';
import { scalarResolvers } from '../../src/graphql/scalars/index.js';

/**
 * The schema with scalars that check the wire format of values already serialised: executing a
 * query against a response's own data then fails wherever the response breaks the schema (a
 * null in a non-null field, an unknown enum value, a malformed DateTime, a wrong union member).
 */
let checkingSchema: GraphQLSchema | undefined;

export function wireCheckingSchema(): GraphQLSchema {
  if (checkingSchema) return checkingSchema;
  const scalars = Object.fromEntries(
    Object.entries(scalarResolvers).map(([name, scalar]) => [
      name,
      new GraphQLScalarType({
        name,
        serialize(value) {
          // parseValue applies the input rules; a value the API sends must satisfy them too.
          (scalar as GraphQLScalarType).parseValue(value);
          return value;
        },
      }),
    ]),
  );
  checkingSchema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: scalars });
  return checkingSchema;
}

/** Asserts that `data`, the response to `query`, conforms to the merged SDL (schema/*.graphql). */
export async function assertConformsToSchema(
  query: string,
  variables: object,
  data: unknown,
): Promise<void> {
  const result = await execute({
    schema: wireCheckingSchema(),
    document: parse(query),
    rootValue: data,
    variableValues: variables as Record<string, unknown>,
  });
  assert.equal(
    result.errors,
    undefined,
    `response breaks the schema: ${JSON.stringify(result.errors)}`,
  );
  // graphql-js builds its result from null-prototype objects; compare plain JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(result.data)), data);
}

/**
 * A selection set naming every field of every type reachable from `field`, with `__typename`
 * and an inline fragment per member on unions, and the set of `Type.field` pairs it covers.
 * A type met again on the same path (record → interviewee → records → …) gets only its leaf
 * fields, which ends the cycle while still selecting every field somewhere.
 */
export function selectEverything(field: GraphQLField<unknown, unknown>): {
  selection: string;
  covered: Set<string>;
} {
  const covered = new Set<string>();
  const selection = selectionOf(getNamedType(field.type), new Set(), covered);
  return { selection, covered };
}

/** Every `Type.field` of every object type reachable from `field` (the goal of selectEverything). */
export function reachableFields(field: GraphQLField<unknown, unknown>): Set<string> {
  const fields = new Set<string>();
  const seen = new Set<string>();
  const visit = (type: GraphQLNamedType) => {
    if (seen.has(type.name)) return;
    seen.add(type.name);
    if (isUnionType(type)) type.getTypes().forEach(visit);
    if (!isObjectType(type)) return;
    for (const child of Object.values(type.getFields())) {
      fields.add(`${type.name}.${child.name}`);
      visit(getNamedType(child.type));
    }
  };
  visit(getNamedType(field.type));
  return fields;
}

function selectionOf(type: GraphQLNamedType, path: Set<string>, covered: Set<string>): string {
  if (isUnionType(type)) {
    const members = type
      .getTypes()
      .map((member) => `... on ${member.name} ${selectionOf(member, path, covered)}`)
      .join(' ');
    return `{ __typename ${members} }`;
  }
  if (!isObjectType(type)) return '';
  const leavesOnly = path.has(type.name);
  const inner = new Set(path).add(type.name);
  const fields = Object.values(type.getFields())
    .filter((child) => !leavesOnly || isLeafType(getNamedType(child.type)))
    .map((child) => {
      covered.add(`${type.name}.${child.name}`);
      return `${child.name} ${selectionOf(getNamedType(child.type), inner, covered)}`;
    });
  return `{ ${fields.join(' ')} }`;
}
