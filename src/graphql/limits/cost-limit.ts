import {
  GraphQLError,
  Kind,
  getArgumentValues,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { UNSIZED_LIST_ITEMS, type ListItemsByField } from './cost-model.js';
import { isIntrospectionEntry, memoizePerFragment, operationLabel } from './document-walk.js';

/**
 * Refuses an operation whose cost (see cost-model.ts) is above `maxCost`. Unlike the static limits
 * this depends on the variables, so it runs for every request, after the document cache. The
 * error carries BAD_USER_INPUT rather than GRAPHQL_VALIDATION_FAILED: the same document passes
 * with a smaller `first` or fewer ids.
 */
export function costLimitError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variableValues: Record<string, unknown>,
  maxCost: number,
  listItems: ListItemsByField,
): GraphQLError | undefined {
  const cost = operationCost(schema, document, operation, variableValues, listItems);
  if (cost <= maxCost) return undefined;
  return new GraphQLError(
    `${operationLabel(operation)} may return up to ${cost} objects; the limit is ${maxCost}. ` +
      'Ask for fewer items with "first" or fewer ids, or select fewer nested connections.',
    { nodes: operation, extensions: { code: 'BAD_USER_INPUT' } },
  );
}

/**
 * The cost limit of one schema. An operation without variables costs the same every time it
 * runs, so its outcome is kept with the (cached, long-lived) operation instead of worked out
 * again for every request.
 */
export class CostLimit {
  private readonly fixed = new WeakMap<OperationDefinitionNode, { error?: GraphQLError }>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly maxCost: number,
    private readonly listItems: ListItemsByField,
  ) {}

  error(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variableValues: Record<string, unknown>,
  ): GraphQLError | undefined {
    const { schema, maxCost, listItems } = this;
    if (operation.variableDefinitions?.length) {
      return costLimitError(schema, document, operation, variableValues, maxCost, listItems);
    }
    let known = this.fixed.get(operation);
    if (!known) {
      known = { error: costLimitError(schema, document, operation, {}, maxCost, listItems) };
      this.fixed.set(operation, known);
    }
    return known.error;
  }
}

/** The largest number of objects the operation's response can hold. */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variableValues: Record<string, unknown>,
  listItemsByField: ListItemsByField,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const fragmentCost = memoizePerFragment(
    (name) => fragments.get(name),
    (fragment, listItems: number | undefined) => {
      const type = schema.getType(fragment.typeCondition.name.value);
      return isCompositeType(type) ? selectionCost(fragment.selectionSet, type, listItems) : 0;
    },
    0,
  );

  /** `listItems`: how many items the lists selected here hold, when the parent field says so. */
  function selectionCost(
    selectionSet: SelectionSetNode,
    parentType: GraphQLCompositeType,
    listItems: number | undefined,
  ): number {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += fieldCost(selection, parentType, listItems);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? schema.getType(selection.typeCondition.name.value)
          : parentType;
        if (isCompositeType(type)) cost += selectionCost(selection.selectionSet, type, listItems);
      } else {
        cost += fragmentCost(selection.name.value, listItems);
      }
    }
    return cost;
  }

  function fieldCost(
    node: FieldNode,
    parentType: GraphQLCompositeType,
    listItems: number | undefined,
  ): number {
    if (!node.selectionSet || isIntrospectionEntry(node)) return 0;
    if (!isObjectType(parentType) && !isInterfaceType(parentType)) return 0;
    const field = parentType.getFields()[node.name.value];
    const type = field && getNamedType(field.type);
    if (!field || !isCompositeType(type)) return 0;
    const items = isListType(getNullableType(field.type)) ? (listItems ?? UNSIZED_LIST_ITEMS) : 1;
    const listItemsOf = listItemsByField.get(`${parentType.name}.${field.name}`);
    const childListItems = listItemsOf?.(argumentsOf(field, node));
    return items * (1 + selectionCost(node.selectionSet, type, childListItems));
  }

  function argumentsOf(field: GraphQLField<unknown, unknown>, node: FieldNode) {
    try {
      return getArgumentValues(field, node, variableValues);
    } catch {
      // Execution reports the bad argument; until then, assume the defaults.
      return {};
    }
  }

  const root = schema.getRootType(operation.operation);
  return root ? selectionCost(operation.selectionSet, root, undefined) : 0;
}
