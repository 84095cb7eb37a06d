import {
  createStringScalar,
  InvalidScalarValueError,
  quote,
  requireString,
} from './string-scalar.js';

const LANGUAGE_CODE = /^[a-z]{2,3}$/;
const LANGUAGE_CODE_ANY_CASE = /^[A-Za-z]{2,3}$/;

/**
 * Checks the form of an ISO 639 language code (two or three lowercase letters). Which codes
 * and language/country pairs are supported is decided where the event is validated.
 */
export function parseLanguageCode(text: string): string {
  if (LANGUAGE_CODE.test(text)) return text;
  if (LANGUAGE_CODE_ANY_CASE.test(text)) {
    throw new InvalidScalarValueError(
      `LanguageCode ${quote(text)} must be lowercase: language codes are lowercase, e.g. ${quote(text.toLowerCase())}`,
    );
  }
  throw new InvalidScalarValueError(
    `LanguageCode ${quote(text)} is not a two- or three-letter ISO 639 language code such as "en"`,
  );
}

export const languageCodeScalar = createStringScalar<string>({
  name: 'LanguageCode',
  parse: parseLanguageCode,
  format: (value) => parseLanguageCode(requireString('LanguageCode', value)),
});
