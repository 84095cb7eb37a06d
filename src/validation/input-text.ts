import { ValidationError } from '../errors.js';
import { multiLineTextProblem, singleLineTextProblem } from '../security/text-safety.js';

/** Where in an input a value sits: field names and list indexes, outermost first. */
export type InputPath = readonly (string | number)[];

/** `body.salary.maximumMinor`, `metadata.contacts[1].contactInfo`: a path as messages name it. */
export function pathText(path: InputPath): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join('');
}

/**
 * A rule an input value breaks, with where the value sits; nothing was written. (Not `path`:
 * graphql-js takes an error with a `path` array for one of its own and would not wrap it.)
 */
export class InputProblem extends ValidationError {
  constructor(
    message: string,
    readonly inputPath: InputPath,
  ) {
    super(message, pathText(inputPath));
  }
}

/** Trimmed one-line text of 1 to `max` characters (UTF-16 code units). */
export function requiredLine(value: string, path: InputPath, max: number): string {
  return checked(value.trim(), path, max, singleLineTextProblem);
}

/** Like requiredLine; absent or blank is null. */
export function optionalLine(
  value: string | null | undefined,
  path: InputPath,
  max: number,
): string | null {
  if (value == null || value.trim() === '') return null;
  return requiredLine(value, path, max);
}

/** Free text (tabs and line breaks allowed), kept as sent apart from surrounding blanks. */
export function optionalText(
  value: string | null | undefined,
  path: InputPath,
  max: number,
): string | null {
  if (value == null || value.trim() === '') return null;
  return checked(value.trim(), path, max, multiLineTextProblem);
}

function checked(
  text: string,
  path: InputPath,
  max: number,
  problemOf: (value: string) => string | undefined,
): string {
  const name = pathText(path);
  if (!text) throw new InputProblem(`${name} must not be empty`, path);
  if (text.length > max) {
    throw new InputProblem(`${name} is longer than ${max} characters`, path);
  }
  const problem = problemOf(text);
  if (problem) throw new InputProblem(`${name} ${problem}`, path);
  return text;
}

/** At most `max` entries; null and undefined are an empty list. */
export function boundedList<T>(
  values: readonly T[] | null | undefined,
  path: InputPath,
  max: number,
): readonly T[] {
  const list = values ?? [];
  if (list.length > max) {
    throw new InputProblem(`${pathText(path)} has more than ${max} entries`, path);
  }
  return list;
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** An ISO 3166-1 alpha-2 code that names a country or territory (not `XX`, not `ZZ`). */
export function knownCountry(code: string, path: InputPath): string {
  if (!/^[A-Z]{2}$/.test(code) || code === 'ZZ' || !REGIONS.of(code)) {
    throw new InputProblem(
      `${pathText(path)}: ${JSON.stringify(code)} is not an ISO 3166-1 alpha-2 country code`,
      path,
    );
  }
  return code;
}

/** An absolute http(s) URL of at most `max` characters, or null when it is not one. */
export function httpUrl(value: string, max: number): URL | null {
  if (value.length > max || /\s/.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}
