import { GraphQLError, GraphQLScalarType, Kind, print } from 'graphql';
import { InvalidScalarValueError, quote } from './string-scalar.js';

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

/**
 * A signed 64-bit whole number, kept as its decimal text so that nothing past 2^53 loses digits.
 * Input: a JSON number that is a whole number, or a string of digits (with an optional minus).
 */
export function parseInt64(value: unknown): string {
  const text =
    typeof value === 'number' && Number.isSafeInteger(value)
      ? String(value)
      : typeof value === 'string' && /^-?\d{1,19}$/.test(value)
        ? value
        : null;
  if (text !== null) {
    const number = BigInt(text);
    if (number >= MIN && number <= MAX) return number.toString();
  }
  const shown = typeof value === 'string' ? quote(value) : String(value);
  throw new InvalidScalarValueError(`Int64 cannot represent ${shown}: a whole number is expected`);
}

/** Output: a JSON number while it is exact (up to 2^53 - 1), a string of digits past that. */
function formatInt64(value: unknown): number | string {
  const text = parseInt64(value);
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : text;
}

function badUserInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

function parseChecked(value: unknown): string {
  try {
    return parseInt64(value);
  } catch (error) {
    if (error instanceof InvalidScalarValueError) throw badUserInput(error.message);
    throw error;
  }
}

export const int64Scalar = new GraphQLScalarType<string, number | string>({
  name: 'Int64',
  serialize: formatInt64,
  parseValue: parseChecked,
  parseLiteral(node) {
    if (node.kind === Kind.INT || node.kind === Kind.STRING) return parseChecked(node.value);
    throw badUserInput(`Int64 must be a whole number, got ${print(node)}`);
  },
});
// As createStringScalar does: keep the description written in schema/common.graphql.
Reflect.deleteProperty(int64Scalar, 'description');
Reflect.deleteProperty(int64Scalar, 'specifiedByURL');
