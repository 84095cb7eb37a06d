import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isAbstractType,
  isInputObjectType,
  isListType,
  isObjectType,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLNamedType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { UNSIZED_LIST_ITEMS } from './cost-model.js';
import type { CostDirectives, ListSize } from './cost-directives.js';
import { isIntrospectionEntry } from './document-walk.js';

/** An operation's cost (cost-model.ts) given its coerced variables. */
export type CostFunction = (variables: Readonly<Record<string, unknown>>) => number;

/** Items of one list given the variables; each list's size is compiled into one of these. */
type SizeFunction = (variables: Readonly<Record<string, unknown>>) => number;

/** A part of the cost: known once the document is, or a function of the variables. */
type Part = number | CostFunction;

/**
 * Compiles an operation's cost into a function of its variables, once per (cached) document: the
 * fields the answer will hold are collected as graphql's executor collects them (fragments
 * expanded, fields of the same response key merged, each alias counted on its own), the
 * directives' weights and list sizes are read, and everything that does not depend on a variable
 * is added up here. What is left for a request is a few multiplications. `@skip` and `@include`
 * are ignored: the estimate is an upper bound, whatever they decide.
 */
export function compileOperationCost(
  directives: CostDirectives,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): CostFunction {
  const { schema } = directives;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const root = schema.getRootType(operation.operation);
  if (!root) return () => 0;
  return asFunction(selectionCost(root, [operation.selectionSet], undefined));

  /**
   * What the fields selected on a value of `parentType` cost; for an interface or union, what
   * the costliest of its possible types does. `sized` sizes lists of the parent (sizedFields).
   */
  function selectionCost(
    parentType: GraphQLObjectType,
    selectionSets: readonly SelectionSetNode[],
    sized: ReadonlyMap<string, SizeFunction | number> | undefined,
  ): Part {
    const parts: Part[] = [];
    for (const [, nodes] of collectFields(parentType, selectionSets)) {
      const part = fieldCost(parentType, nodes, sized);
      if (part !== 0) parts.push(part);
    }
    return sum(parts);
  }

  function abstractSelectionCost(
    namedType: GraphQLNamedType,
    selectionSets: readonly SelectionSetNode[],
    sized: ReadonlyMap<string, SizeFunction | number> | undefined,
  ): Part {
    if (isObjectType(namedType)) return selectionCost(namedType, selectionSets, sized);
    if (!isAbstractType(namedType)) return 0;
    return maximum(
      schema.getPossibleTypes(namedType).map((type) => selectionCost(type, selectionSets, sized)),
    );
  }

  /** One response key: the field's weight and what is selected in it, times its items. */
  function fieldCost(
    parentType: GraphQLObjectType,
    nodes: readonly FieldNode[],
    sized: ReadonlyMap<string, SizeFunction | number> | undefined,
  ): Part {
    const node = nodes[0]!;
    if (isIntrospectionEntry(node)) return 0;
    const field = parentType.getFields()[node.name.value];
    if (!field) return 0;
    const coordinate = `${parentType.name}.${field.name}`;
    const listSize = directives.listSizeOf(coordinate);
    const ownSize = listSize && sizeFunction(coordinate, field, node, listSize);
    const childSized =
      ownSize && listSize.sizedFields.length
        ? new Map(listSize.sizedFields.map((name) => [name, ownSize]))
        : undefined;
    const selections = nodes.flatMap((one) => (one.selectionSet ? [one.selectionSet] : []));
    const below = selections.length
      ? abstractSelectionCost(getNamedType(field.type), selections, childSized)
      : 0;
    const each = add(directives.weightOf(parentType.name, field), below);
    if (!isListType(getNullableType(field.type))) return each;
    const items: SizeFunction | number =
      sized?.get(field.name) ??
      (ownSize && !listSize.sizedFields.length ? ownSize : UNSIZED_LIST_ITEMS);
    return multiply(items, each);
  }

  function collectFields(
    type: GraphQLObjectType,
    selectionSets: readonly SelectionSetNode[],
  ): Map<string, FieldNode[]> {
    const fields = new Map<string, FieldNode[]>();
    const visited = new Set<string>();
    const visit = (selectionSet: SelectionSetNode) => {
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          const known = fields.get(key);
          if (known) known.push(selection);
          else fields.set(key, [selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (applies(selection.typeCondition?.name.value, type)) visit(selection.selectionSet);
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (visited.has(name) || !fragment) continue;
          visited.add(name);
          if (applies(fragment.typeCondition.name.value, type)) visit(fragment.selectionSet);
        }
      }
    };
    for (const selectionSet of selectionSets) visit(selectionSet);
    return fields;
  }

  function applies(condition: string | undefined, type: GraphQLObjectType): boolean {
    if (!condition || condition === type.name) return true;
    const conditionType = schema.getType(condition);
    return isAbstractType(conditionType) && schema.isSubType(conditionType, type);
  }
}

/** Refused before execution: the arguments do not say how many items a list will hold. */
export class SlicingArgumentError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: 'BAD_USER_INPUT' } });
  }
}

/** How many items `@listSize` gives the list of `node`, as a function of the variables. */
function sizeFunction(
  coordinate: string,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  listSize: ListSize,
): SizeFunction | number {
  const values = listSize.slicingArguments.map((path) => slicingValue(field, node, path));
  const size = (given: MaybeSize[]) => sizeFromGiven(coordinate, listSize, given);
  if (values.every((value) => typeof value !== 'function')) {
    const constant = values as Array<number | undefined>;
    // A missing required argument is refused here by validation already; checked per request.
    try {
      return size(constant);
    } catch (error) {
      return () => {
        throw error;
      };
    }
  }
  return (variables) =>
    size(values.map((value) => (typeof value === 'function' ? value(variables) : value)));
}

type MaybeSize = number | undefined;

/** The largest size given by a slicing argument, else `assumedSize`. */
function sizeFromGiven(coordinate: string, listSize: ListSize, given: MaybeSize[]): number {
  const sizes = given.filter((value): value is number => value !== undefined);
  if (listSize.requireOneSlicingArgument && given.length && sizes.length !== 1) {
    const names = listSize.slicingArguments.map((path) => path.join('.')).join('", "');
    throw new SlicingArgumentError(
      `${coordinate} needs exactly one of "${names}", to know how many items it returns.`,
    );
  }
  return sizes.length ? Math.max(...sizes) : (listSize.assumedSize ?? UNSIZED_LIST_ITEMS);
}

/**
 * The items `@listSize` gives a list for a field called with these (coerced) arguments: what
 * the compiled cost function computes, without a document (tests compare it with resolvers).
 */
export function listItemsFor(
  coordinate: string,
  field: GraphQLField<unknown, unknown>,
  listSize: ListSize,
  args: Readonly<Record<string, unknown>>,
): number {
  const given = listSize.slicingArguments.map(([name, ...rest]) => {
    const argument = field.args.find((arg) => arg.name === name)!;
    return sizeOf(walk(args[name!] ?? argument.defaultValue, argument.type, rest));
  });
  return sizeFromGiven(coordinate, listSize, given);
}

/**
 * The size a slicing argument (`first`, or `input.ids` through an input object) sets: a number,
 * or a list's length; undefined when it is not given. Known now unless a variable is involved.
 */
function slicingValue(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  [name, ...rest]: string[],
): MaybeSize | ((variables: Readonly<Record<string, unknown>>) => MaybeSize) {
  const argument = field.args.find((arg) => arg.name === name)!;
  const given = node.arguments?.find((arg) => arg.name.value === name)?.value;
  if (!given) return sizeOf(walk(argument.defaultValue, argument.type, rest));
  return fromAst(given, argument.type, rest);
}

function fromAst(
  value: ValueNode,
  type: GraphQLInputType,
  path: string[],
): MaybeSize | ((variables: Readonly<Record<string, unknown>>) => MaybeSize) {
  if (value.kind === Kind.VARIABLE) {
    const variable = value.name.value;
    return (variables) => sizeOf(walk(variables[variable], type, path));
  }
  if (!path.length) return sizeOf(valueFromASTUntyped(value));
  const [step, ...rest] = path;
  const input = getNamedType(type);
  const fieldType = isInputObjectType(input) ? input.getFields()[step!] : undefined;
  if (value.kind !== Kind.OBJECT || !fieldType) return undefined;
  const inner = value.fields.find((one) => one.name.value === step)?.value;
  if (!inner) return sizeOf(walk(fieldType.defaultValue, fieldType.type, rest));
  return fromAst(inner, fieldType.type, rest);
}

/** Follows `path` through a coerced input value; a field left out takes its default. */
function walk(value: unknown, type: GraphQLInputType, path: string[]): unknown {
  let current = value;
  let currentType = type;
  for (const step of path) {
    const input = getNamedType(currentType);
    const fieldType = isInputObjectType(input) ? input.getFields()[step] : undefined;
    if (!fieldType || current === null || typeof current !== 'object') return undefined;
    const next = (current as Record<string, unknown>)[step];
    current = next === undefined ? fieldType.defaultValue : next;
    currentType = fieldType.type;
  }
  return current;
}

function sizeOf(value: unknown): MaybeSize {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.max(0, value) : undefined;
  // A single value where a list is expected is coerced to a list of one.
  return 1;
}

function asFunction(part: Part): CostFunction {
  if (typeof part === 'number') {
    const total = Math.ceil(part);
    return () => total;
  }
  return (variables) => Math.ceil(part(variables));
}

function add(a: Part, b: Part): Part {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  return sum([a, b]);
}

function sum(parts: readonly Part[]): Part {
  let constant = 0;
  const variable: CostFunction[] = [];
  for (const part of parts) {
    if (typeof part === 'number') constant += part;
    else variable.push(part);
  }
  if (!variable.length) return constant;
  return (variables) => {
    let total = constant;
    for (const part of variable) total += part(variables);
    return total;
  };
}

function maximum(parts: readonly Part[]): Part {
  if (parts.every((part) => typeof part === 'number')) return Math.max(0, ...(parts as number[]));
  return (variables) =>
    Math.max(0, ...parts.map((part) => (typeof part === 'number' ? part : part(variables))));
}

function multiply(items: SizeFunction | number, each: Part): Part {
  if (typeof items === 'number' && typeof each === 'number') return items * each;
  if (each === 0) return 0;
  return (variables) =>
    (typeof items === 'number' ? items : items(variables)) *
    (typeof each === 'number' ? each : each(variables));
}
