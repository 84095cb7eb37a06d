import type { FieldNode, FragmentDefinitionNode, OperationDefinitionNode } from 'graphql';

/**
 * Measures each fragment once per distinct argument list, however often it is spread, so that
 * measuring a document stays linear in its size even when fragments spread each other many times
 * over. A fragment met again while it is still being measured (a cycle, which graphql's
 * NoFragmentCyclesRule reports) and an unknown fragment both measure as `fallback`.
 */
export function memoizePerFragment<T, A extends Array<string | number | undefined>>(
  lookup: (name: string) => FragmentDefinitionNode | null | undefined,
  measure: (fragment: FragmentDefinitionNode, ...args: A) => T,
  fallback: T,
): (name: string, ...args: A) => T {
  const measured = new Map<string, T>();
  const inProgress = new Set<string>();
  return (name, ...args) => {
    const key = JSON.stringify([name, ...args]);
    if (measured.has(key)) return measured.get(key)!;
    const fragment = lookup(name);
    if (!fragment || inProgress.has(key)) return fallback;
    inProgress.add(key);
    const value = measure(fragment, ...args);
    inProgress.delete(key);
    measured.set(key, value);
    return value;
  };
}

/**
 * `__schema` and `__type`, the entries into introspection. Depth and cost leave them out: what
 * they return is bounded by the size of the schema, and graphql's MaxIntrospectionDepthRule (one
 * of the specified rules) stops the nesting that could blow it up.
 */
export function isIntrospectionEntry(field: FieldNode): boolean {
  return field.name.value === '__schema' || field.name.value === '__type';
}

/** How an error message refers to an operation. */
export function operationLabel(operation: OperationDefinitionNode): string {
  return operation.name ? `Operation "${operation.name.value}"` : `The ${operation.operation}`;
}
