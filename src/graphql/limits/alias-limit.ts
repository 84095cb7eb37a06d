import { GraphQLError, Kind, type SelectionSetNode, type ValidationRule } from 'graphql';
import { memoizePerFragment, operationLabel } from './document-walk.js';

/**
 * Refuses operations with more than `maxAliases` aliased fields. Aliases are what let one request
 * run the same expensive field many times over with different arguments. A fragment's aliases
 * count once for every place it is spread.
 */
export function maxAliasesRule(maxAliases: number): ValidationRule {
  return (context) => {
    const fragmentAliases = memoizePerFragment(
      (name) => context.getFragment(name),
      (fragment) => aliasesIn(fragment.selectionSet),
      0,
    );

    function aliasesIn(selectionSet: SelectionSetNode): number {
      let count = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.alias) count += 1;
          if (selection.selectionSet) count += aliasesIn(selection.selectionSet);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          count += aliasesIn(selection.selectionSet);
        } else {
          count += fragmentAliases(selection.name.value);
        }
      }
      return count;
    }

    return {
      OperationDefinition(operation) {
        const aliases = aliasesIn(operation.selectionSet);
        if (aliases > maxAliases) {
          context.reportError(
            new GraphQLError(
              `${operationLabel(operation)} uses ${aliases} aliases; the limit is ${maxAliases}.`,
              { nodes: operation },
            ),
          );
        }
        return false;
      },
    };
  };
}
