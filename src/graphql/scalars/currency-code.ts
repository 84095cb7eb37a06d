import {
  createStringScalar,
  InvalidScalarValueError,
  quote,
  requireString,
} from './string-scalar.js';

/** ISO 4217 codes this runtime knows (ICU's list: current and historic currencies). */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** Checks an ISO 4217 currency code: three uppercase letters naming a known currency. */
export function parseCurrencyCode(text: string): string {
  if (/^[A-Z]{3}$/.test(text) && CURRENCIES.has(text)) return text;
  if (/^[a-z]{3}$/i.test(text) && CURRENCIES.has(text.toUpperCase())) {
    throw new InvalidScalarValueError(
      `CurrencyCode ${quote(text)} must be uppercase, e.g. ${quote(text.toUpperCase())}`,
    );
  }
  throw new InvalidScalarValueError(
    `CurrencyCode ${quote(text)} is not an ISO 4217 currency code such as "USD"`,
  );
}

export const currencyCodeScalar = createStringScalar<string>({
  name: 'CurrencyCode',
  parse: parseCurrencyCode,
  format: (value) => parseCurrencyCode(requireString('CurrencyCode', value)),
});
