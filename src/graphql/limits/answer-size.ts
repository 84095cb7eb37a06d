import {
  GraphQLError,
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

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
 * what the resolvers really return, before graphql expands it, and stops the request once it is
 * past a limit, so that no estimate, however wrong, lets one answer exhaust the worker's heap.
 */
export class AnswerBudget {
  private nodes = 0;
  private bytes = 0;
  private exceeded: { message: string; error: GraphQLError } | undefined;

  constructor(private readonly limits: AnswerLimits) {}

  /** Counts a resolved value; throws once the answer is past a limit. */
  spend(nodes: number, bytes: number): void {
    this.nodes += nodes;
    this.bytes += bytes;
    if (!this.exceeded) {
      const what =
        this.nodes > this.limits.maxNodes
          ? `more than ${this.limits.maxNodes} objects`
          : this.bytes > this.limits.maxBytes
            ? `more than ${this.limits.maxBytes} bytes`
            : undefined;
      if (!what) return;
      const message =
        `The answer would hold ${what}, the most one answer may hold. Ask for fewer items ` +
        'with "first" or fewer ids, or select fewer nested connections.';
      // One error, thrown again by every resolver still running: graphql keeps an error that
      // already has a path as it is, so the request stops without making an error per field.
      this.exceeded = { message, error: new GraphQLError(message, { path: [] }) };
    }
    throw this.exceeded.error;
  }

  /** Throws when the answer is already past a limit: nothing more needs resolving. */
  check(): void {
    if (this.exceeded) throw this.exceeded.error;
  }

  /** The error that replaces the whole answer once it went past a limit, else undefined. */
  refusal(): GraphQLError | undefined {
    if (!this.exceeded) return undefined;
    return new GraphQLError(this.exceeded.message, { extensions: { code: 'BAD_USER_INPUT' } });
  }
}

/** The budget of the request a resolver runs for. */
export type BudgetOf = (context: unknown) => AnswerBudget;

const counted = new WeakSet<GraphQLSchema>();

/**
 * Makes every field of `schema` count what it resolves to against the request's budget. Done
 * once per schema, in place: the gateway owns the schema it is handed.
 */
export function countAnswers(schema: GraphQLSchema, budgetOf: BudgetOf): GraphQLSchema {
  if (counted.has(schema)) return schema;
  counted.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      field.resolve = countingResolver(field.resolve ?? defaultFieldResolver, field.type, budgetOf);
    }
  }
  return schema;
}

function countingResolver(
  resolve: GraphQLFieldResolver<unknown, unknown>,
  type: GraphQLOutputType,
  budgetOf: BudgetOf,
): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const budget = budgetOf(context);
    budget.check();
    const keyBytes = String(info.path.key).length + 4;
    const spend = (value: unknown) => {
      const { nodes, bytes } = sizeOf(value, type);
      budget.spend(nodes, keyBytes + bytes);
      return value;
    };
    const value = resolve(source, args, context, info);
    return isPromiseLike(value) ? value.then(spend) : spend(value);
  };
}

/** Objects and (roughly) serialized bytes a resolved value adds, before what is selected in it. */
function sizeOf(value: unknown, type: GraphQLOutputType): { nodes: number; bytes: number } {
  if (value === null || value === undefined) return { nodes: 0, bytes: 4 };
  const nullable = getNullableType(type);
  const composite = isCompositeType(getNamedType(nullable));
  if (isListType(nullable) && Array.isArray(value)) {
    if (composite) return { nodes: value.length, bytes: 2 + value.length * 3 };
    let bytes = 2;
    for (const item of value) bytes += leafBytes(item) + 1;
    return { nodes: 0, bytes };
  }
  return composite ? { nodes: 1, bytes: 2 } : { nodes: 0, bytes: leafBytes(value) };
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
