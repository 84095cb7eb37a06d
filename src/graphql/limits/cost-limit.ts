import {
  GraphQLError,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { costDirectivesOf, type CostDirectives } from './cost-directives.js';
import { compileOperationCost, SlicingArgumentError, type CostFunction } from './cost-plan.js';
import { operationLabel } from './document-walk.js';

/** An operation's cost for one request, or why it is refused before it runs. */
export type CostEstimate = { cost: number } | { error: GraphQLError };

/**
 * The cost analysis of one schema (cost-model.ts): each operation's cost function is compiled
 * once and kept with the operation, which the document cache keeps, so a request only applies it
 * to its variables. Refuses an operation whose cost is above `maxCost` with BAD_USER_INPUT rather
 * than GRAPHQL_VALIDATION_FAILED: the same document passes with a smaller `first` or fewer ids.
 */
export class CostLimit {
  private readonly compiled = new WeakMap<OperationDefinitionNode, CostFunction>();
  private readonly directives: CostDirectives;

  constructor(
    schema: GraphQLSchema,
    private readonly maxCost: number,
  ) {
    this.directives = costDirectivesOf(schema);
  }

  estimate(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variableValues: Readonly<Record<string, unknown>>,
    maxCost = this.maxCost,
  ): CostEstimate {
    let cost: number;
    try {
      cost = this.costFunction(document, operation)(variableValues);
    } catch (error) {
      if (error instanceof SlicingArgumentError) return { error };
      throw error;
    }
    if (cost <= maxCost) return { cost };
    return {
      error: new GraphQLError(
        `${operationLabel(operation)} may return up to ${cost} objects; the limit is ${maxCost}. ` +
          'Ask for fewer items with "first" or fewer ids, or select fewer nested connections.',
        { nodes: operation, extensions: { code: 'BAD_USER_INPUT', cost } },
      ),
    };
  }

  private costFunction(document: DocumentNode, operation: OperationDefinitionNode): CostFunction {
    let compiled = this.compiled.get(operation);
    if (!compiled) {
      compiled = compileOperationCost(this.directives, document, operation);
      this.compiled.set(operation, compiled);
    }
    return compiled;
  }
}

/** The largest number of objects the operation's answer can hold (cost-model.ts). */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variableValues: Readonly<Record<string, unknown>>,
): number {
  return compileOperationCost(costDirectivesOf(schema), document, operation)(variableValues);
}
