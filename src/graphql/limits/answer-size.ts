import {
  GraphQLError,
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import { costDirectivesOf } from './cost-directives.js';

/** How large one answer may grow (GRAPHQL_MAX_RESPONSE_NODES, GRAPHQL_MAX_RESPONSE_BYTES). */
export interface AnswerLimits {
  /** Objects (values of an object, interface or union type), the cost model's unit. */
  maxNodes: number;
  /** Bytes of the serialized answer, estimated value by value as they are resolved. */
  maxBytes: number;
}

/**
 * What one request's answer has grown to while it executes. The cost limit refuses an operation
 * that could answer too much before it runs, but it is only as good as its estimate; this counts
 * what the resolvers really return, before graphql expands it, and once the answer is past a
 * limit the rest of the request is cut short and the gateway answers with `refusal()` alone, so
 * that no estimate, however wrong, lets one answer exhaust the worker's heap.
 */
export class AnswerBudget {
  private nodes = 0;
  private bytes = 0;
  private weighed = 0;
  private exceededBy: string | undefined;

  constructor(private readonly limits: AnswerLimits) {}

  /** A new budget with the same limits, for an answer computed again from the start. */
  renewed(): AnswerBudget {
    return new AnswerBudget(this.limits);
  }

  get exceeded(): boolean {
    return this.exceededBy !== undefined;
  }

  /**
   * The answer's actual cost: what was resolved, weighed as the cost model weighs the estimate
   * (each object 1 unless the SDL's `@cost` says otherwise).
   */
  get actualCost(): number {
    return Math.ceil(this.weighed);
  }

  /** Counts a resolved value; false once the answer is past a limit. */
  spend(nodes: number, bytes: number, cost = nodes): boolean {
    this.nodes += nodes;
    this.bytes += bytes;
    this.weighed += cost;
    if (this.nodes > this.limits.maxNodes) {
      this.exceededBy ??= `more than ${this.limits.maxNodes} objects`;
    } else if (this.bytes > this.limits.maxBytes) {
      this.exceededBy ??= `more than ${this.limits.maxBytes} bytes`;
    }
    return !this.exceeded;
  }

  /** The error that replaces the whole answer once it went past a limit, else undefined. */
  refusal(): GraphQLError | undefined {
    if (!this.exceededBy) return undefined;
    return new GraphQLError(
      `The answer would hold ${this.exceededBy}, the most one answer may hold. Ask for fewer ` +
        'items with "first" or fewer ids, or select fewer nested connections.',
      { extensions: { code: 'BAD_USER_INPUT' } },
    );
  }
}

/** The budget of the request a resolver runs for. */
export type BudgetOf = (context: unknown) => AnswerBudget;

const countedSchemas = new WeakSet<GraphQLSchema>();

/**
 * Makes every field of `schema` count what it resolves to against the request's budget. Done
 * once per schema, in place: the gateway owns the schema it is handed.
 */
export function countAnswers(schema: GraphQLSchema, budgetOf: BudgetOf): GraphQLSchema {
  if (countedSchemas.has(schema)) return schema;
  countedSchemas.add(schema);
  const mutations = schema.getMutationType();
  const weights = costDirectivesOf(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      field.resolve = countingResolver(
        field.resolve ?? defaultFieldResolver,
        field.type,
        weights.weightOf(type.name, field),
        budgetOf,
        // A mutation after the limit must not write: its answer would be thrown away unseen.
        type === mutations,
      );
    }
  }
  return schema;
}

/**
 * A resolver that counts its value, and once the answer is past a limit, cuts it short: a list
 * comes back empty and a nullable field null, so nothing below them is resolved; a non-null
 * field keeps its value (its own lists are cut in turn). Nothing is thrown: graphql 16 leaves a
 * rejection unhandled when a sibling in the same list or object fails synchronously, and an
 * unhandled rejection ends the process. The answer built this way is thrown away whole.
 */
function countingResolver(
  resolve: GraphQLFieldResolver<unknown, unknown>,
  type: GraphQLOutputType,
  weight: number,
  budgetOf: BudgetOf,
  isMutation: boolean,
): GraphQLFieldResolver<unknown, unknown> {
  const cut = isMutation
    ? null
    : isListType(getNullableType(type))
      ? CUT_LIST
      : isNonNullType(type)
        ? KEEP
        : null;
  const shape = shapeOf(type, weight);
  // Runs for every field of every answer: nothing is allocated for a value resolved at once.
  return (source, args, context, info) => {
    const budget = budgetOf(context);
    if (budget.exceeded) {
      return cut === KEEP ? resolve(source, args, context, info) : cut === CUT_LIST ? [] : null;
    }
    let value: unknown;
    try {
      value = resolve(source, args, context, info);
    } catch (error) {
      // Thrown synchronously where siblings already answered promises, graphql 16 abandons
      // those promises and a later rejection of one goes unhandled, which ends the process: a
      // rejection instead travels with its siblings.
      return Promise.reject(error as Error);
    }
    if (!isPromiseLike(value)) return counted(budget, shape, cut, info, value);
    return value.then((resolved) => counted(budget, shape, cut, info, resolved));
  };
}

/** What a field's type says about the size of its values, worked out once per field. */
interface Shape {
  /** A list (whatever its nullability). */
  list: boolean;
  /** Of objects, interfaces or unions (its items, for a list). */
  composite: boolean;
  /** What each value (each item, for a list) adds to the actual cost (cost-model.ts). */
  weight: number;
}

function shapeOf(type: GraphQLOutputType, weight: number): Shape {
  const nullable = getNullableType(type);
  return { list: isListType(nullable), composite: isCompositeType(getNamedType(nullable)), weight };
}

/** What a field answers once the budget is spent (besides null). */
const CUT_LIST = Symbol('empty list');
const KEEP = Symbol('its own value');
type Cut = typeof CUT_LIST | typeof KEEP | null;

function counted(
  budget: AnswerBudget,
  shape: Shape,
  cut: Cut,
  info: GraphQLResolveInfo,
  value: unknown,
): unknown {
  const keyBytes = String(info.path.key).length + 4;
  const nodes = nodesIn(value, shape);
  const cost = shape.weight === 0 ? 0 : itemsIn(value, shape) * shape.weight;
  if (budget.spend(nodes, keyBytes + bytesOf(value, shape), cost)) return value;
  return cut === KEEP ? value : cut === CUT_LIST ? [] : null;
}

/** Values a resolved value holds: a list's items that are not null, else 1 unless null. */
function itemsIn(value: unknown, { list }: Shape): number {
  if (value === null || value === undefined) return 0;
  if (!list || !Array.isArray(value)) return 1;
  let items = 0;
  for (const item of value as unknown[]) if (item !== null && item !== undefined) items += 1;
  return items;
}

/** Objects a resolved value adds (those selected inside it are counted by their own fields). */
function nodesIn(value: unknown, { list, composite }: Shape): number {
  if (value === null || value === undefined || !composite) return 0;
  return list && Array.isArray(value) ? value.length : 1;
}

/** Roughly the bytes a resolved value adds to the serialized answer, before what is inside it. */
function bytesOf(value: unknown, { list, composite }: Shape): number {
  if (value === null || value === undefined) return 4;
  if (list && Array.isArray(value)) {
    if (composite) return 2 + value.length * 3;
    let bytes = 2;
    for (const item of value) bytes += leafBytes(item) + 1;
    return bytes;
  }
  return composite ? 2 : leafBytes(value);
}

/** A scalar or enum value as JSON; custom scalars (dates) serialize to a short string. */
function leafBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value) + 2;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  return 40;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
