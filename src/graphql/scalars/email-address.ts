import { emailProblem } from '../../validation/email.js';
import {
  createStringScalar,
  InvalidScalarValueError,
  quote,
  requireString,
} from './string-scalar.js';

/**
 * Checks an email address with the service-wide rule (one `@`, local part of 1 to 64 plain
 * characters, a domain of at least two DNS labels, 254 characters at most, no spaces or control
 * characters) and returns it without surrounding whitespace, letter case kept.
 */
export function parseEmailAddress(text: string): string {
  const address = text.trim();
  const problem = emailProblem(address);
  if (problem !== undefined) {
    throw new InvalidScalarValueError(
      `EmailAddress ${quote(address)} is not a valid email address: it ${problem}`,
    );
  }
  return address;
}

export const emailAddressScalar = createStringScalar<string>({
  name: 'EmailAddress',
  parse: parseEmailAddress,
  format: (value) => parseEmailAddress(requireString('EmailAddress', value)),
});
