/**
 * The character rules every edge applies to identifiers and text before they reach a lookup or a
 * write. PostgreSQL refuses NUL in text (error 22021), so a NUL that got that far would fail as a
 * 500; the other control characters, and UTF-16 surrogates without their pair (which a JSON body
 * can carry but no database stores as sent), have no place in an identifier or a one-line text.
 *
 * openapi.yaml states the one-line rule as a `pattern` on the OAuth parameters; it must be
 * SINGLE_LINE_PATTERN character for character (test/security/text-safety.test.ts checks).
 */

/**
 * The one-line rule as a JSON Schema pattern: C0 controls, DEL, C1 controls and lone surrogates
 * are refused. Validators compile patterns with the `u` flag, under which a surrogate pair is one
 * code point outside the surrogate range, so only unpaired surrogates match it.
 */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$';

const SINGLE_LINE = new RegExp(SINGLE_LINE_PATTERN, 'u');
const TABS_AND_LINE_BREAKS = /[\t\n\r]/g;

/** Whether `value` is one-line text: no control characters, no unpaired surrogates. */
export function isSingleLineText(value: string): boolean {
  return SINGLE_LINE.test(value);
}

/** Whether `value` is free text: like one-line text, but tabs and line breaks are allowed. */
export function isMultiLineText(value: string): boolean {
  return isSingleLineText(value.replace(TABS_AND_LINE_BREAKS, ''));
}

/** Why `value` cannot be stored as one-line text, as the end of a sentence; undefined if it can. */
export function singleLineTextProblem(value: string): string | undefined {
  if (isSingleLineText(value)) return undefined;
  return LONE_SURROGATE.test(value) ? NOT_UNICODE : CONTROL_CHARACTERS;
}

/** Why `value` cannot be stored as free text, as the end of a sentence; undefined if it can. */
export function multiLineTextProblem(value: string): string | undefined {
  if (isMultiLineText(value)) return undefined;
  return LONE_SURROGATE.test(value) ? NOT_UNICODE : CONTROL_CHARACTERS_EXCEPT_LINES;
}

/**
 * Whether `value` can name a stored row at all: a non-empty one-line string of at most
 * `maxLength` characters. Anything else is unknown by construction, so callers answer "not
 * found" without a lookup (and without a database error for a NUL).
 */
export function isPossibleIdentifier(value: unknown, maxLength: number): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= maxLength &&
    isSingleLineText(value)
  );
}

const LONE_SURROGATE = /\p{Cs}/u;
const NOT_UNICODE = 'must be well-formed Unicode text';
const CONTROL_CHARACTERS = 'must not contain control characters';
const CONTROL_CHARACTERS_EXCEPT_LINES =
  'must not contain control characters other than tabs and line breaks';
