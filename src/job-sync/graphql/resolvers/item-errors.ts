import { GraphQLError } from 'graphql';
import { NotFoundError, type DomainError } from '../../../errors.js';
import { InputProblem } from '../../../validation/input-text.js';

/**
 * The error of one item of a batch: thrown by the item's nullable field, so that the field is
 * null and `errors[].path` names the item (`[..., "results", 3, "jobPosting"]`). Its
 * `extensions.validatedPath` names the input value at fault, from the operation's arguments
 * (`["input", "jobPostings", 3, "body", "salary", "maximumMinor"]`).
 */
export function itemError(
  problem: DomainError,
  inputPath: ReadonlyArray<string | number>,
): GraphQLError {
  const within = problem instanceof InputProblem ? problem.inputPath : [];
  return new GraphQLError(problem.message, {
    extensions: {
      code: problem instanceof NotFoundError ? 'NOT_FOUND' : 'BAD_USER_INPUT',
      classification: 'ValidationError',
      validatedPath: [...inputPath, ...within],
    },
  });
}
