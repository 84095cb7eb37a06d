import { ValidationError } from '../../errors.js';

/**
 * Spec §4.8: the languages the Interview API supports and, per language, the countries it may
 * be paired with. Every language may also stand alone. The rows are kept exactly as published,
 * including `jp`, and the "Italian Switzerland" row that pairs `fr` with `CH`.
 */
export const SUPPORTED_LOCALES: Readonly<Record<string, readonly string[]>> = {
  cs: ['CZ'],
  de: ['BE', 'CH', 'DE'],
  en: ['AE', 'AU', 'BE', 'CA', 'CH', 'GB', 'HK', 'IE', 'IN', 'MY', 'NZ', 'PH', 'SG', 'US', 'ZA'],
  es: ['ES', 'MX'],
  fr: ['BE', 'CA', 'CH', 'FR'],
  it: ['IT'],
  ja: [],
  jp: ['JP'],
  nl: ['BE', 'NL'],
  pl: ['PL'],
  pt: [],
  sv: ['SE'],
  uk: ['UA'],
  zh: ['HK', 'SG'],
};

/** Checks a language/country pair against the table; both are optional, a country needs a language. */
export function checkLocale(
  languageCode: string | null | undefined,
  countryCode: string | null | undefined,
): void {
  if (languageCode == null) {
    if (countryCode != null) {
      throw new ValidationError(
        'input.countryCode needs input.languageCode: a country alone is not a supported locale',
        'countryCode',
      );
    }
    return;
  }
  const countries = Object.hasOwn(SUPPORTED_LOCALES, languageCode)
    ? SUPPORTED_LOCALES[languageCode]
    : undefined;
  if (!countries) {
    throw new ValidationError(
      `input.languageCode ${JSON.stringify(languageCode)} is not supported; use one of ${Object.keys(SUPPORTED_LOCALES).join(', ')}`,
      'languageCode',
    );
  }
  if (countryCode != null && !countries.includes(countryCode)) {
    throw new ValidationError(
      `input.countryCode ${JSON.stringify(countryCode)} is not supported with languageCode ${JSON.stringify(languageCode)}` +
        (countries.length
          ? `; use one of ${countries.join(', ')}, or omit it`
          : '; omit countryCode for this language'),
      'countryCode',
    );
  }
}
