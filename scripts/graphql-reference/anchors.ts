import { Kind } from 'graphql';
import type { Definition } from './sdl-catalog.js';

/**
 * The ids of the page's entries are schema coordinates (the GraphQL schema coordinates RFC):
 * `Type`, `Type.field`, `Type.field(argument:)`, `Enum.VALUE`, `@directive`, `@directive(argument:)`.
 * A GraphQL name has no `-`, so the page's own ids (`api-…`, `reference-…`) never meet one.
 */
export const anchors = {
  type: (name: string) => name,
  member: (type: string, member: string) => `${type}.${member}`,
  argument: (type: string, field: string, argument: string) => `${type}.${field}(${argument}:)`,
  directive: (name: string) => `@${name}`,
  directiveArgument: (directive: string, argument: string) => `@${directive}(${argument}:)`,

  /** Every id a definition gives the page (an extension's type keeps its defining module's). */
  of(definition: Definition): string[] {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION) {
      const name = definition.name.value;
      return [
        anchors.directive(name),
        ...(definition.arguments ?? []).map((argument) =>
          anchors.directiveArgument(name, argument.name.value),
        ),
      ];
    }
    const type = definition.name.value;
    const ids = definition.kind.endsWith('Extension') ? [] : [anchors.type(type)];
    if ('fields' in definition) {
      for (const field of definition.fields ?? []) {
        ids.push(anchors.member(type, field.name.value));
        for (const argument of 'arguments' in field ? (field.arguments ?? []) : []) {
          ids.push(anchors.argument(type, field.name.value, argument.name.value));
        }
      }
    }
    if ('values' in definition) {
      for (const value of definition.values ?? []) ids.push(anchors.member(type, value.name.value));
    }
    return ids;
  },
};
