import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLScalarType, Kind, parse, type DefinitionNode, type GraphQLSchema } from 'graphql';
import type { GraphQLApi } from './api.js';
import { commonResolvers } from './common-resolvers.js';
import { rootFieldsOf } from './access/root-fields.js';
import type { GuardedApi } from './access/refusals.js';
import type { ContextFactory, GatewayContext } from './context.js';
import {
  COMMON_SDL_MODULE,
  loadTypeDefs,
  readSdlModule,
  sdlModuleNames,
  sdlModulePath,
} from './schema.js';

/** The registered APIs put together: what the gateway serves. */
export interface ComposedApis {
  schema: GraphQLSchema;
  /** The gateway's context of one request with every API's part added. */
  createContext: ContextFactory;
  /** The API each root field (`Query.field`) belongs to, by its SDL module, with its access. */
  apiOfRootField: ReadonlyMap<string, GuardedApi>;
}

type ResolverMap = Record<string, unknown>;

/**
 * The executable schema of the given APIs over schema/common.graphql, once registrationProblems
 * finds nothing wrong: a mismatch between SDL files, names and resolvers stops the service at
 * startup with every problem listed, rather than leaving a field answering null.
 */
export function composeApis(apis: readonly GraphQLApi[]): ComposedApis {
  const problems = registrationProblems(apis);
  if (problems.length > 0) {
    throw new Error(`The GraphQL APIs do not match schema/:\n- ${problems.join('\n- ')}`);
  }
  const resolvers: Record<string, ResolverMap | GraphQLScalarType> = { ...commonResolvers };
  for (const api of apis) {
    for (const [type, fields] of Object.entries(api.resolvers as ResolverMap)) {
      const known = resolvers[type];
      resolvers[type] = known ? { ...known, ...(fields as ResolverMap) } : (fields as ResolverMap);
    }
  }
  const schema = makeExecutableSchema({
    typeDefs: loadTypeDefs([COMMON_SDL_MODULE, ...apis.map(({ name }) => name)]),
    resolvers,
  });
  const createContext: ContextFactory = (request: GatewayContext) =>
    Object.assign({}, request, ...apis.map((api) => api.createContext(request)));
  const apiOfRootField = new Map(
    apis.flatMap((api) =>
      rootFieldsOf(readSdlModule(api.name)).map(
        (coordinate) => [coordinate, { name: api.name, ...api.access }] as const,
      ),
    ),
  );
  return { schema, createContext, apiOfRootField };
}

/**
 * What does not match between the SDL modules and the registered APIs: an SDL file no API
 * registers, an API without its SDL file, a type or field defined by two modules, a field of an
 * API's SDL its resolvers leave out, or a resolver for something its SDL does not define.
 * `modules` maps each SDL module's name to its text (by default every file under schema/).
 */
export function registrationProblems(
  apis: readonly Pick<GraphQLApi, 'name' | 'resolvers'>[],
  modules: ReadonlyMap<string, string> = sdlModulesOnDisk(),
): string[] {
  const problems: string[] = [];
  const owners = [
    { name: COMMON_SDL_MODULE, resolvers: commonResolvers as object, by: 'the gateway' },
    ...apis.map((api) => ({ ...api, by: `the ${api.name} API` })),
  ];
  const registered = new Set<string>();
  for (const { name } of owners) {
    if (registered.has(name)) problems.push(`two APIs are registered as "${name}"`);
    registered.add(name);
    if (!modules.has(name))
      problems.push(`the ${name} API is registered but ${sdlModulePath(name)} does not exist`);
  }
  for (const name of modules.keys()) {
    if (!registered.has(name)) {
      problems.push(`${sdlModulePath(name)} has no registered API (add it to src/apis.ts)`);
    }
  }

  const definedBy = new Map<string, string>();
  const checked = new Set<string>();
  for (const owner of owners) {
    const text = modules.get(owner.name);
    // A module registered twice is reported above, and checked once.
    if (text === undefined || checked.has(owner.name)) continue;
    checked.add(owner.name);
    const expected = resolvableCoordinates(parse(text).definitions);
    for (const coordinate of [...expected.types, ...expected.fields]) {
      const other = definedBy.get(coordinate);
      if (other) {
        problems.push(
          `${coordinate} is defined by both ${sdlModulePath(other)} and ${sdlModulePath(owner.name)}`,
        );
      }
      definedBy.set(coordinate, owner.name);
    }
    const resolved = new Set(resolvedCoordinates(owner.resolvers as ResolverMap));
    for (const coordinate of expected.resolvable) {
      if (!resolved.has(coordinate)) {
        problems.push(
          `${owner.by} has no resolver for ${coordinate} (${sdlModulePath(owner.name)})`,
        );
      }
    }
    for (const coordinate of resolved) {
      if (!expected.resolvable.has(coordinate)) {
        problems.push(
          `${owner.by} resolves ${coordinate}, which ${sdlModulePath(owner.name)} does not define`,
        );
      }
    }
  }
  return problems;
}

function sdlModulesOnDisk(): Map<string, string> {
  return new Map(sdlModuleNames().map((name) => [name, readSdlModule(name)]));
}

/**
 * What one SDL module defines (types, and fields of the types it defines or extends) and what
 * of it needs a resolver: a scalar's implementation, each field of an object type, the type
 * resolution of a union or interface.
 */
function resolvableCoordinates(definitions: readonly DefinitionNode[]) {
  const types = new Set<string>();
  const fields = new Set<string>();
  const resolvable = new Set<string>();
  for (const definition of definitions) {
    switch (definition.kind) {
      case Kind.SCALAR_TYPE_DEFINITION:
        types.add(definition.name.value);
        resolvable.add(definition.name.value);
        break;
      case Kind.UNION_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_DEFINITION:
        types.add(definition.name.value);
        resolvable.add(`${definition.name.value}.__resolveType`);
        break;
      case Kind.ENUM_TYPE_DEFINITION:
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
        types.add(definition.name.value);
        break;
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION:
        // An extension (Query, Mutation) adds fields to a type another module defines.
        if (definition.kind === Kind.OBJECT_TYPE_DEFINITION) types.add(definition.name.value);
        for (const field of definition.fields ?? []) {
          const coordinate = `${definition.name.value}.${field.name.value}`;
          fields.add(coordinate);
          resolvable.add(coordinate);
        }
        break;
    }
  }
  return { types, fields, resolvable };
}

/** `Scalar` or `Type.field` of everything a resolver map resolves (`__isTypeOf` left out). */
function resolvedCoordinates(resolvers: ResolverMap): string[] {
  return Object.entries(resolvers).flatMap(([type, value]) =>
    value instanceof GraphQLScalarType
      ? [type]
      : Object.keys(value as ResolverMap)
          .filter((field) => field !== '__isTypeOf')
          .map((field) => `${type}.${field}`),
  );
}
