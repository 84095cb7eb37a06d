import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  SINGLE_LINE_PATTERN,
  isMultiLineText,
  isPossibleIdentifier,
  isSingleLineText,
  multiLineTextProblem,
  singleLineTextProblem,
} from '../../src/security/text-safety.js';
import { openApiDocument } from '../support/openapi-contract.js';

/** C0 controls, DEL and C1 controls: exactly Unicode's Cc category. */
const CONTROL = /\p{Cc}/u;
/** Under the `u` flag a surrogate pair is one code point, so only unpaired ones are Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

describe('text safety rules', () => {
  it('are the rule openapi.yaml states for every identifier and token parameter', () => {
    const schema = openApiDocument().components.schemas.SingleLineText as { pattern?: string };
    assert.equal(schema.pattern, SINGLE_LINE_PATTERN);
  });

  it('refuse exactly the control characters and unpaired surrogates in one-line text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const expected = !CONTROL.test(text) && !LONE_SURROGATE.test(text);
        assert.equal(isSingleLineText(text), expected);
        assert.equal(singleLineTextProblem(text) === undefined, expected);
      }),
    );
  });

  it('let free text keep tabs and line breaks, and nothing else of the kind', () => {
    assert.ok(isMultiLineText('line one\r\n\tline two'));
    for (const control of ['\u0000', '\u0007', '\u000B', '\u000C', '\u001B', '\u007F', '\u0085']) {
      assert.ok(!isMultiLineText(`a${control}b`), JSON.stringify(control));
      assert.match(multiLineTextProblem(`a${control}b`)!, /control characters/);
    }
    assert.ok(!isSingleLineText('a\tb'));
  });

  it('name an unpaired surrogate as a Unicode problem and keep paired ones', () => {
    assert.ok(isSingleLineText('emoji 😀 and 漢字'));
    assert.equal(singleLineTextProblem('a\uD800b'), 'must be well-formed Unicode text');
    assert.equal(singleLineTextProblem('a\u0000b'), 'must not contain control characters');
  });

  it('take as a possible identifier only non-empty one-line strings within the bound', () => {
    assert.ok(isPossibleIdentifier('abc', 3));
    for (const value of ['', 'abcd', 'a\u0000', 42, null, undefined, ['a']]) {
      assert.ok(!isPossibleIdentifier(value, 3), JSON.stringify(value));
    }
  });
});
