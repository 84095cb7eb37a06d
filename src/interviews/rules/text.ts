import { ValidationError } from '../../errors.js';
import { multiLineTextProblem, singleLineTextProblem } from '../../security/text-safety.js';

/**
 * A title or a name stays on one line; free text such as a note may hold tabs and line breaks,
 * stored as `\n` whatever the sender used (a browser sends a textarea's lines with `\r\n`).
 */
export type TextLines = 'single' | 'multi';

/**
 * Trims a required text input, refusing an empty one, one longer than the column holds, or one
 * with control characters.
 */
export function requiredText(
  value: string,
  path: string,
  maxLength: number,
  lines: TextLines = 'single',
): string {
  const text = (lines === 'multi' ? withNewlines(value) : value).trim();
  if (!text) throw new ValidationError(`${path} must not be empty`, path);
  if (text.length > maxLength)
    throw new ValidationError(`${path} must be at most ${maxLength} characters`, path);
  const problem = lines === 'single' ? singleLineTextProblem(text) : multiLineTextProblem(text);
  if (problem) throw new ValidationError(`${path} ${problem}`, path);
  return text;
}

/** Like requiredText, but absent or blank means "not given". */
export function optionalText(
  value: string | null | undefined,
  path: string,
  maxLength: number,
  lines: TextLines = 'single',
): string | null {
  if (value == null || value.trim() === '') return null;
  return requiredText(value, path, maxLength, lines);
}

/** Line breaks as `\n`: `\r\n` (Windows, HTML forms) and a lone `\r` (classic Mac) alike. */
export function withNewlines(value: string): string {
  return value.replace(/\r\n?/g, '\n');
}
