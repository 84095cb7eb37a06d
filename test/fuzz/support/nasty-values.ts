/**
 * Values a careless or hostile client sends: control characters, NUL, overlong and huge strings,
 * every kind of Unicode (unpaired surrogates included), values of the wrong JSON type and deeply
 * nested ones. Each generator mixes them with well-formed values, so requests also get past the
 * first check and reach the deeper ones.
 */
import fc from 'fast-check';

/** Just over the default body limit once encoded: the 413 path. */
export const HUGE_TEXT = 'a'.repeat(100 * 1024);
/** Longer than every identifier bound (255), shorter than the body limit. */
export const LONG_TEXT = 'x'.repeat(300);

const controlCharacter = fc
  .integer({ min: 0, max: 0x9f })
  .filter((code) => code < 0x20 || code >= 0x7f)
  .map((code) => String.fromCharCode(code));
const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));
const exoticText = fc.constantFrom(
  '😀',
  '👩‍💻',
  'e\u0301',
  '\u202Eevil',
  '\uFEFF',
  '漢字',
  'ﷺ',
  '\u200B',
  '%00',
  '%ED%A0%80',
  '\\u0000',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '{{7*7}}',
  '${jndi:ldap://x}',
);

/** One string of any of the troublesome kinds. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 4,
    arbitrary: fc.string({ unit: fc.oneof(controlCharacter, loneSurrogate), maxLength: 8 }),
  },
  { weight: 4, arbitrary: exoticText },
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constant('\u0000') },
  { weight: 2, arbitrary: fc.constant(LONG_TEXT) },
  { weight: 2, arbitrary: fc.string({ minLength: 250, maxLength: 600 }) },
  // Rare, because one huge field makes the whole request a 413 that tests nothing else.
  { weight: 1, arbitrary: fc.constant(HUGE_TEXT) },
);

/** A well-formed value spoiled by a control character or an unpaired surrogate somewhere inside. */
export function spoiled(valid: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.nat({ max: valid.length }), fc.oneof(controlCharacter, loneSurrogate))
    .map(([at, bad]) => `${valid.slice(0, at)}${bad}${valid.slice(at)}`);
}

/** Mostly the valid value (so checks further in are reached), otherwise something nasty. */
export function aroundString(...valid: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...valid) },
    { weight: 3, arbitrary: fc.constantFrom(...valid).chain(spoiled) },
    { weight: 3, arbitrary: nastyString },
  );
}

/** A JSON value of any type, nested a little. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, 1.5, -0, true, false, null),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** In a JSON body: mostly the valid value, sometimes a nasty string or a value of another type. */
export function around<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: valid },
    { weight: 1, arbitrary: nastyString },
    { weight: 1, arbitrary: anyJson },
  );
}

/** JSON text nested `depth` levels deep, as arrays or objects. */
export const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 40_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? `${'['.repeat(depth)}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/** Text that is not JSON, or not quite. */
export const brokenJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"query":',
    '[',
    'null',
    '"query"',
    '{"query": "{ __typename }",}',
    "{'a':1}",
    'NaN',
    '\u0000',
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Content-Type headers, right and wrong. */
export const contentTypes = (right: string) =>
  fc.oneof(
    { weight: 16, arbitrary: fc.constant(right) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/x-www-form-urlencoded; charset=latin1',
        'application/json; charset=utf-8',
        'application/graphql',
        'application/octet-stream',
        '*/*',
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
