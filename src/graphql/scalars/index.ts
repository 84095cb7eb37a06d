import type { Resolvers, Scalars } from '../../../generated/graphql.js';
import { countryCodeScalar } from './country-code.js';
import { currencyCodeScalar } from './currency-code.js';
import { dateTimeScalar } from './date-time.js';
import { emailAddressScalar } from './email-address.js';
import { int64Scalar } from './int64.js';
import { languageCodeScalar } from './language-code.js';
import { timeZoneScalar } from './time-zone.js';
import { webUrlScalar } from './web-url.js';

type BuiltInScalarName = 'ID' | 'String' | 'Boolean' | 'Int' | 'Float';
/** Every custom scalar of schema/common.graphql, taken from the generated types. */
export type CustomScalarName = Exclude<keyof Scalars, BuiltInScalarName>;

/**
 * The implementation of every custom scalar, keyed by scalar name, ready to be merged into the
 * resolver map. A scalar added to schema/common.graphql fails type-checking here until it has one.
 */
export const scalarResolvers = {
  DateTime: dateTimeScalar,
  TimeZone: timeZoneScalar,
  EmailAddress: emailAddressScalar,
  WebUrl: webUrlScalar,
  LanguageCode: languageCodeScalar,
  CountryCode: countryCodeScalar,
  CurrencyCode: currencyCodeScalar,
  Int64: int64Scalar,
} satisfies Pick<Resolvers, CustomScalarName>;
