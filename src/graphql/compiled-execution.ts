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

/** A document's operation seen once, not compiled yet. */
const SEEN = Symbol('seen once');
/** An operation graphql-jit cannot compile: graphql-js runs it every time. */
const UNCOMPILABLE = Symbol('uncompilable');
type Slot = CompiledQuery | typeof SEEN | typeof UNCOMPILABLE;

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
 * Executes queries with graphql-jit and everything else with graphql-js, to the same answer:
 * graphql-jit is about twice as fast on our resolvers (docs/benchmarks.md), but it orders an
 * answer's keys and words its errors its own way, so only an answer without errors is taken
 * from it. One with errors is computed again by graphql-js (a query only reads, so running it
 * twice changes nothing), over the same loaders and a fresh answer budget. Mutations are never
 * compiled: they must not run twice.
 *
 * An operation is compiled the second time its document is executed, so a document sent once
 * costs no compilation. Compiled queries hang off their parsed document, which the document
 * cache holds (src/graphql/document.ts): they are dropped with it, under the same bound.
 */
export class CompiledExecutor {
  private readonly operations = new WeakMap<DocumentNode, Map<string, Slot>>();

  constructor(private readonly schema: GraphQLSchema) {}

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
    // A fresh budget: the first run's resolvers (even one still running) count against the old.
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
    const slot = slots.get(key);
    if (slot === undefined) {
      slots.set(key, SEEN);
      return undefined;
    }
    if (slot !== SEEN) return slot === UNCOMPILABLE ? undefined : slot;
    const compiled = this.compile(document, operationName);
    slots.set(key, compiled ?? UNCOMPILABLE);
    return compiled;
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
