import {
  Kind,
  isSpecifiedDirective,
  isSpecifiedScalarType,
  print,
  type DefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

/**
 * The merged SDL of a schema built from SDL modules, as one document without extensions, that
 * keeps the directives applied in the SDL files (`@listSize`, `@cost`, `@specifiedBy`), which
 * graphql's printSchema leaves out: the cost of an operation can be worked out from what is
 * downloaded. Each type is printed from its definition with the fields its extensions add.
 */
export function printSdlWithDirectives(schema: GraphQLSchema): string {
  const definitions: DefinitionNode[] = [];
  for (const directive of schema.getDirectives()) {
    if (!isSpecifiedDirective(directive) && directive.astNode) definitions.push(directive.astNode);
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    definitions.push(merged(type));
  }
  return `${print({ kind: Kind.DOCUMENT, definitions })}\n`;
}

function merged(type: GraphQLNamedType): DefinitionNode {
  const definition = type.astNode;
  if (!definition) throw new Error(`${type.name} was not built from SDL`);
  const extensions = type.extensionASTNodes;
  if (!extensions.length || !('fields' in definition)) return definition;
  const fields: readonly unknown[] = [
    ...(definition.fields ?? []),
    ...extensions.flatMap((extension): readonly unknown[] =>
      'fields' in extension ? (extension.fields ?? []) : [],
    ),
  ];
  return { ...definition, fields } as DefinitionNode;
}
