import { ValidationError } from '../../errors.js';

/** Trims a required text input, refusing an empty one or one longer than the column holds. */
export function requiredText(value: string, path: string, maxLength: number): string {
  const text = value.trim();
  if (!text) throw new ValidationError(`${path} must not be empty`, path);
  if (text.length > maxLength)
    throw new ValidationError(`${path} must be at most ${maxLength} characters`, path);
  return text;
}

/** Like requiredText, but absent or blank means "not given". */
export function optionalText(
  value: string | null | undefined,
  path: string,
  maxLength: number,
): string | null {
  if (value == null || value.trim() === '') return null;
  return requiredText(value, path, maxLength);
}
