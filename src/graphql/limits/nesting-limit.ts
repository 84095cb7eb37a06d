import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';

/**
 * Deepest nesting of braces, brackets and parentheses a document may have. graphql-js parses
 * recursively, and about 2,000 nested list brackets exhaust the stack (a RangeError, answered as
 * a 500) before the token limit stops the parser. Real documents stay far below this: the field
 * depth limit is 14 by default, and an input value of this schema nests a few levels more.
 */
export const MAX_NESTING = 200;

const OPENING = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * An error when `query` nests deeper than MAX_NESTING, found with graphql's lexer, which works
 * iteratively. Lexing stops after `maxTokens` tokens or at a lexical error: the parser reports
 * those itself.
 */
export function nestingLimitError(query: string, maxTokens: number): GraphQLError | undefined {
  const source = new Source(query);
  const lexer = new Lexer(source);
  let depth = 0;
  try {
    for (let count = 0; count <= maxTokens; count++) {
      const token = lexer.advance();
      if (token.kind === TokenKind.EOF) return undefined;
      if (CLOSING.has(token.kind)) depth = Math.max(0, depth - 1);
      if (OPENING.has(token.kind) && ++depth > MAX_NESTING) {
        return new GraphQLError(
          `The document nests braces, brackets or parentheses more than ${MAX_NESTING} deep.`,
          { source, positions: [token.start] },
        );
      }
    }
  } catch (error) {
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
  return undefined;
}
