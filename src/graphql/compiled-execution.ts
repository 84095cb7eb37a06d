import {
  execute,
  getOperationAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GatewayContext } from './context.js';

/** An operation graphql-jit cannot compile (or a mutation): graphql-js runs it every time. */
const UNCOMPILABLE = Symbol('uncompilable');
/** A compiled query, or how many times graphql-js has executed the operation so far. */
type Slot = CompiledQuery | typeof UNCOMPILABLE | number;

const stats = { compilations: 0, uncompilable: 0, compiledAnswers: 0, reexecuted: 0 };

/**
 * Process-wide counts: operations compiled, operations graphql-jit could not compile, answers
 * given by a compiled query, and compiled executions whose answer had errors and were run again
 * by graphql-js.
 */
export function compiledExecutionStats(): typeof stats {
  return { ...stats };
}

/**
 * Executes queries with graphql-jit and everything else with graphql-js, to the same answer.
 * graphql-jit spends about a third less CPU on the P2 document with our resolvers
 * (bench/graphql-execution.ts), but it orders an answer's keys and words its errors its own
 * way, so only an answer without errors is taken from it. One with errors is computed again by
 * graphql-js (a query only reads, so running it twice changes nothing), over the same loaders
 * and a renewed answer budget. Mutations are never compiled: they must not run twice.
 *
 * Compiling takes as long as a few dozen executions save (about 3 ms for the P2 document), so
 * an operation is compiled once graphql-js has executed it `compileAfter` times: a document sent
 * once or twice costs no compilation. Compiled queries hang off their parsed document, which
 * the document cache holds (src/graphql/document.ts): they are dropped with it; and at most
 * `mostCompiled` are kept at once, the least recently used dropped first (its operation counts
 * its executions again from zero).
 */
export class CompiledExecutor {
  private readonly operations = new WeakMap<DocumentNode, Map<string, Slot>>();
  /** Every compiled query kept, least recently used first, with the slot that holds it. */
  private readonly kept = new Map<CompiledQuery, { slots: Map<string, Slot>; key: string }>();

  constructor(
    private readonly schema: GraphQLSchema,
    /** Executions by graphql-js of a query operation before it is compiled. */
    private readonly compileAfter: number,
    private readonly mostCompiled: number,
  ) {}

  readonly execute = async (args: ExecutionArgs): Promise<ExecutionResult> => {
    const compiled = this.compiled(args.document, args.operationName ?? undefined);
    if (!compiled) return execute(args);
    const result = await compiled.query(args.rootValue, args.contextValue, args.variableValues);
    if (!result.errors) {
      stats.compiledAnswers += 1;
      return result;
    }
    stats.reexecuted += 1;
    const context = args.contextValue as GatewayContext;
    // The first run's resolvers counted against the old budget.
    context.answer = context.answer.renewed();
    return execute(args);
  };

  private compiled(document: DocumentNode, operationName?: string): CompiledQuery | undefined {
    let slots = this.operations.get(document);
    if (!slots) {
      slots = new Map();
      this.operations.set(document, slots);
    }
    const key = operationName ?? '';
    const slot = slots.get(key) ?? 0;
    if (slot === UNCOMPILABLE) return undefined;
    if (typeof slot !== 'number') {
      const holder = this.kept.get(slot);
      if (holder) {
        this.kept.delete(slot);
        this.kept.set(slot, holder);
      }
      return slot;
    }
    if (slot < this.compileAfter) {
      slots.set(key, slot + 1);
      return undefined;
    }
    const compiled = this.compile(document, operationName);
    slots.set(key, compiled ?? UNCOMPILABLE);
    if (compiled) this.keep(compiled, slots, key);
    return compiled;
  }

  private keep(compiled: CompiledQuery, slots: Map<string, Slot>, key: string): void {
    this.kept.set(compiled, { slots, key });
    for (const [oldest, holder] of this.kept) {
      if (this.kept.size <= this.mostCompiled) break;
      this.kept.delete(oldest);
      if (holder.slots.get(holder.key) === oldest) holder.slots.set(holder.key, 0);
    }
  }

  /** Compiled queries kept now (tests). */
  get compiledCount(): number {
    return this.kept.size;
  }

  private compile(document: DocumentNode, operationName?: string): CompiledQuery | undefined {
    if (getOperationAST(document, operationName)?.operation !== 'query') return undefined;
    try {
      const compiled = compileQuery(this.schema, document, operationName);
      if (isCompiledQuery(compiled)) {
        stats.compilations += 1;
        return compiled;
      }
    } catch {
      // Reported below like a refusal: graphql-js answers this operation.
    }
    stats.uncompilable += 1;
    return undefined;
  }
}
