import { Kind, parse } from 'graphql';

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * The root fields (`Query.field`, `Mutation.field`) one SDL module defines or adds: the fields
 * through which a document reaches that module's API.
 */
export function rootFieldsOf(sdl: string): string[] {
  return parse(sdl).definitions.flatMap((definition) =>
    (definition.kind === Kind.OBJECT_TYPE_DEFINITION ||
      definition.kind === Kind.OBJECT_TYPE_EXTENSION) &&
    ROOT_TYPES.has(definition.name.value)
      ? (definition.fields ?? []).map((field) => `${definition.name.value}.${field.name.value}`)
      : [],
  );
}
