import {
  createStringScalar,
  InvalidScalarValueError,
  quote,
  requireString,
} from './string-scalar.js';

const COUNTRY_CODE = /^[A-Z]{2}$/;
const COUNTRY_CODE_ANY_CASE = /^[A-Za-z]{2}$/;

/**
 * Checks the form of an ISO 3166-1 alpha-2 country code (two uppercase letters). Which
 * language/country pairs are supported is decided where the event is validated.
 */
export function parseCountryCode(text: string): string {
  if (COUNTRY_CODE.test(text)) return text;
  if (COUNTRY_CODE_ANY_CASE.test(text)) {
    throw new InvalidScalarValueError(
      `CountryCode ${quote(text)} must be uppercase: country codes are uppercase, e.g. ${quote(text.toUpperCase())}`,
    );
  }
  throw new InvalidScalarValueError(
    `CountryCode ${quote(text)} is not a two-letter ISO 3166-1 alpha-2 country code such as "US"`,
  );
}

export const countryCodeScalar = createStringScalar<string>({
  name: 'CountryCode',
  parse: parseCountryCode,
  format: (value) => parseCountryCode(requireString('CountryCode', value)),
});
