import { InputProblem, type InputPath } from './input-text.js';
import { singleLineTextProblem } from '../security/text-safety.js';

/** The platform's message for a bad `{type, id}` pair (platform-apis.md §4). */
export const INVALID_EMPLOYER_IDENTIFIERS = 'EmployerIdentifiersInput contains invalid type or id';

const TYPE = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * An employer's `{type, id}` as Employer Data keys it and Job Sync postings cite it: a type of
 * 1 to 100 letters, digits and `._:-`, an id of 1 to 255 characters on one line.
 */
export function checkEmployerIdentifiers(
  pair: { type: string; id: string },
  path: InputPath,
): { type: string; id: string } {
  const id = pair.id.trim();
  if (
    !TYPE.test(pair.type) ||
    id.length === 0 ||
    id.length > 255 ||
    singleLineTextProblem(id) !== undefined
  ) {
    throw new InputProblem(INVALID_EMPLOYER_IDENTIFIERS, path);
  }
  return { type: pair.type, id };
}
