/**
 * Turns the errors of a generated request validator (generated/validators.cjs) into one sentence
 * for `error_description`, naming the parameter at fault: "code is required",
 * "grant_type must be one of authorization_code, refresh_token, client_credentials".
 */
import type { ErrorObject } from 'ajv';
import { SINGLE_LINE_PATTERN, singleLineTextProblem } from '../security/text-safety.js';

export interface ValidationProblem {
  /** The offending parameter (dotted path for nested values); undefined for the request as a whole. */
  parameter: string | undefined;
  /** The JSON Schema keyword that failed, such as `required`, `enum` or `pattern`. */
  keyword: string;
  /** One sentence suitable for `error_description`. */
  message: string;
}

/** Keywords that only say "a branch failed"; the branch's own errors are more useful. */
const COMPOSITE = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'not', 'discriminator']);

/** A missing parameter is reported before a malformed one, and a wrong type before a wrong value. */
const RANK: Record<string, number> = {
  required: 0,
  dependentRequired: 1,
  type: 2,
  enum: 3,
  const: 3,
};

const FORMAT_NAMES: Record<string, string> = {
  uri: 'an absolute URI',
  'uri-reference': 'a URI reference',
  email: 'an email address',
  'date-time': 'an RFC 3339 date-time',
  uuid: 'a UUID',
};

const COMPARISONS: Record<string, string> = {
  '>=': 'at least',
  '<=': 'at most',
  '>': 'greater than',
  '<': 'less than',
};

/**
 * Picks the most telling error and describes it. `data` is the validated value; it is used to
 * recognise a parameter that was sent more than once (parsed into an array) and to word a
 * control-character refusal. `name` names the value itself when it is one parameter rather than
 * a whole request.
 */
export function describeValidationErrors(
  errors: readonly ErrorObject[] | null | undefined,
  data?: unknown,
  name?: string,
): ValidationProblem {
  const all = errors ?? [];
  const specific = all.filter((error) => !COMPOSITE.has(error.keyword));
  const candidates = specific.length > 0 ? specific : all;
  const error = [...candidates].sort((a, b) => (RANK[a.keyword] ?? 9) - (RANK[b.keyword] ?? 9))[0];
  if (!error)
    return { parameter: name, keyword: 'unknown', message: `${name ?? 'The request'} is invalid` };
  return describe(error, data, name);
}

/** The sentence of describeValidationErrors alone. */
export function validationMessage(
  errors: readonly ErrorObject[] | null | undefined,
  data?: unknown,
  name?: string,
): string {
  return describeValidationErrors(errors, data, name).message;
}

function describe(error: ErrorObject, value: unknown, name: string | undefined): ValidationProblem {
  const path = [...(name === undefined ? [] : [name]), ...pointerSegments(error.instancePath)];
  const data = name === undefined ? value : { [name]: value };
  const params = error.params as Record<string, unknown>;
  const keyword = error.keyword;

  // These keywords name the offending property in their params rather than in the path.
  const child = params.missingProperty ?? params.additionalProperty ?? params.tag;
  if (
    typeof child === 'string' &&
    ['required', 'dependentRequired', 'additionalProperties', 'discriminator'].includes(keyword)
  ) {
    const parameter = joinPath([...path, child]);
    return { parameter, keyword, message: `${parameter} ${childReason(keyword, params)}` };
  }

  const parameter = path.length > 0 ? joinPath(path) : undefined;
  const subject = parameter ?? 'The request';
  const offending = valueAt(data, path);
  return { parameter, keyword, message: `${subject} ${reason(error, offending, parameter)}` };
}

function childReason(keyword: string, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'required':
      return 'is required';
    case 'dependentRequired':
      return `is required when ${String(params.property)} is given`;
    case 'additionalProperties':
      return 'is not allowed';
    default:
      // discriminator: the tag is missing, not a string, or not one of the branches.
      if (params.error === 'mapping') return 'has an unsupported value';
      return params.tagValue === undefined ? 'is required' : 'must be a string';
  }
}

function reason(error: ErrorObject, value: unknown, parameter: string | undefined): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      // A form parameter sent twice parses into an array; a JSON body that is an array does not.
      if (Array.isArray(value) && params.type !== 'array' && parameter !== undefined) {
        return 'must be given only once';
      }
      return `must be ${String(params.type).split(',').map(article).join(' or ')}`;
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      return allowed.length === 1
        ? `must be ${allowed[0]}`
        : `must be one of ${allowed.join(', ')}`;
    }
    case 'const':
      return `must be ${String(params.allowedValue)}`;
    case 'minLength':
      return params.limit === 1
        ? 'must not be empty'
        : `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'pattern':
      if (params.pattern === SINGLE_LINE_PATTERN && typeof value === 'string') {
        return singleLineTextProblem(value) ?? 'has an invalid format';
      }
      return 'has an invalid format';
    case 'format':
      return `must be ${FORMAT_NAMES[String(params.format)] ?? `a valid ${String(params.format)}`}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${COMPARISONS[String(params.comparison)] ?? String(params.comparison)} ${String(params.limit)}`;
    case 'minItems':
      return `must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    default:
      return error.message ?? 'is invalid';
  }
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function joinPath(segments: string[]): string {
  return segments.reduce(
    (path, segment) =>
      /^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment,
    '',
  );
}

function valueAt(data: unknown, path: string[]): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
