import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from 'graphql';

/**
 * A value that breaks a scalar's format rule. Thrown by the pure parse and format helpers, so
 * that code outside GraphQL can reuse them; the GraphQL layer turns it into BAD_USER_INPUT on
 * input. On output it stays a plain error on purpose: a bad value there is a server bug, and the
 * gateway masks and logs errors that are not GraphQLErrors instead of echoing them to clients.
 */
export class InvalidScalarValueError extends Error {
  override name = 'InvalidScalarValueError';
}

const MAX_QUOTED_LENGTH = 80;

/** The value as it appears in an error message, cut short so a huge input cannot flood logs. */
export function quote(value: string): string {
  const shown = value.length > MAX_QUOTED_LENGTH ? `${value.slice(0, MAX_QUOTED_LENGTH)}…` : value;
  return JSON.stringify(shown);
}

export interface StringScalarDefinition<TInternal> {
  name: string;
  /** Checks wire text and returns the internal value; throws InvalidScalarValueError. */
  parse(text: string): TInternal;
  /** Turns an internal value back into wire text; throws InvalidScalarValueError. */
  format(value: unknown): string;
}

/**
 * A scalar sent as a JSON string, with the same checks on variables (parseValue) and inline
 * literals (parseLiteral). Its description and specifiedBy URL live in schema/common.graphql only.
 */
export function createStringScalar<TInternal>(
  definition: StringScalarDefinition<TInternal>,
): GraphQLScalarType<TInternal, string> {
  const { name } = definition;

  function parseText(text: string, node?: ValueNode): TInternal {
    try {
      return definition.parse(text);
    } catch (error) {
      if (error instanceof InvalidScalarValueError) throw badUserInput(error.message, node);
      throw error;
    }
  }

  const scalar = new GraphQLScalarType<TInternal, string>({
    name,
    serialize: (value) => definition.format(value),
    parseValue(value) {
      if (typeof value !== 'string') {
        throw badUserInput(`${name} must be a string, got ${describeType(value)}`);
      }
      return parseText(value);
    },
    parseLiteral(node) {
      if (node.kind !== Kind.STRING) {
        throw badUserInput(`${name} must be a string literal, got ${print(node)}`, node);
      }
      return parseText(node.value, node);
    },
  });
  // makeExecutableSchema copies every own property of a resolver scalar over the type built from
  // schema/common.graphql, an undefined description or specifiedByURL included, which would erase
  // the documentation written there. Without these properties the schema file's text is kept.
  Reflect.deleteProperty(scalar, 'description');
  Reflect.deleteProperty(scalar, 'specifiedByURL');
  return scalar;
}

/** The format check shared by every scalar whose internal value is the wire string itself. */
export function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new InvalidScalarValueError(`${name} cannot represent a ${describeType(value)}`);
  }
  return value;
}

function badUserInput(message: string, node?: ValueNode): GraphQLError {
  return new GraphQLError(message, {
    ...(node && { nodes: node }),
    extensions: { code: 'BAD_USER_INPUT' },
  });
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value;
}
