import { GraphQLError, type ValidationRule } from 'graphql';

/**
 * Refuses an operation whose type the schema does not define, such as a `subscription` against
 * a schema without a Subscription type. graphql-js 16 lets one through validation, and
 * graphql-http then answers "Subscriptions are not supported" without a code, which the gateway
 * would report as INTERNAL_SERVER_ERROR. It is a property of the document alone, so it belongs
 * with validation: GRAPHQL_VALIDATION_FAILED, which is also how graphql-js 17 reports it
 * (KnownOperationTypesRule).
 */
export const knownOperationTypesRule: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (context.getSchema().getRootType(node.operation)) return;
    context.reportError(
      new GraphQLError(`The ${node.operation} operation is not supported by the schema.`, {
        nodes: node,
      }),
    );
  },
});
