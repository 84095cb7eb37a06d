import { GraphQLError, Kind, type SelectionSetNode, type ValidationRule } from 'graphql';
import { isIntrospectionEntry, memoizePerFragment, operationLabel } from './document-walk.js';

/**
 * Refuses operations whose fields nest deeper than `maxDepth`, counting fields along the longest
 * path (`{ a { b } }` is 2 deep) and following fragment spreads; inline fragments and spreads
 * add no level of their own.
 */
export function maxDepthRule(maxDepth: number): ValidationRule {
  return (context) => {
    const fragmentDepth = memoizePerFragment(
      (name) => context.getFragment(name),
      (fragment) => depthOf(fragment.selectionSet),
      0,
    );

    function depthOf(selectionSet: SelectionSetNode): number {
      let deepest = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          if (isIntrospectionEntry(selection)) continue;
          const below = selection.selectionSet ? depthOf(selection.selectionSet) : 0;
          deepest = Math.max(deepest, 1 + below);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(selection.selectionSet));
        } else {
          deepest = Math.max(deepest, fragmentDepth(selection.name.value));
        }
      }
      return deepest;
    }

    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet);
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(
              `${operationLabel(operation)} nests fields ${depth} levels deep; the limit is ${maxDepth}.`,
              { nodes: operation },
            ),
          );
        }
        // Measured above in one go; nothing below needs visiting for this rule.
        return false;
      },
    };
  };
}
