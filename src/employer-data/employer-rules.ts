import { GraphQLError } from 'graphql';
import type {
  CountrySpecificEmployerAttributesInput,
  EmployerAttributesInput,
  LocaleSpecificEmployerAttributesInput,
} from '../../generated/graphql.js';
import {
  boundedList,
  httpUrl,
  InputProblem,
  knownCountry,
  optionalLine,
  optionalText,
  requiredLine,
  type InputPath,
} from '../validation/input-text.js';

/** Employer attributes as stored (JSON), merged patch by patch. */
export interface EmployerAttributes {
  employerType?: string;
  /** By country code. */
  countries: Record<string, Record<string, unknown>>;
  /** By `language_COUNTRY`, `ww_WW` for the worldwide default. */
  locales: Record<string, Record<string, unknown>>;
  jpNewGrads?: Record<string, unknown>;
}

const EMAIL_IN_TEXT = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const EIGHT_DIGITS = /\d{8}/;

/** `employerName`: 1 to 255 UTF-16 code units, no email address, no run of 8 or more digits. */
export function checkEmployerName(name: string, path: InputPath): string {
  const checked = requiredLine(name, path, 255);
  if (EMAIL_IN_TEXT.test(checked)) {
    throw new InputProblem('employerName must not contain an email address', path);
  }
  if (EIGHT_DIGITS.test(checked)) {
    throw new InputProblem('employerName must not contain a run of 8 or more digits', path);
  }
  return checked;
}

/**
 * The documented refusal of a bad website (platform-apis.md §4): `BAD_USER_INPUT` with an
 * ExtendedValidationError classification naming the path and the constraint.
 */
export function websiteRefusal(index: number): GraphQLError {
  const validatedPath = [
    'patchEmployer',
    'input',
    'employerAttributes',
    'countrySpecificAttributes',
    index,
    'websiteUrl',
  ];
  return new GraphQLError(
    'websiteUrl must be a valid http or https URL of at most 400 characters',
    {
      extensions: {
        code: 'BAD_USER_INPUT',
        classification: {
          type: 'ExtendedValidationError',
          validatedPath,
          constraint: '@DossierUrlConstraint',
        },
        serviceName: 'company-data-api',
      },
    },
  );
}

/** A website problem, raised where the service knows the entry's index. */
export class WebsiteProblem extends InputProblem {
  constructor(readonly index: number) {
    super('websiteUrl must be a valid http or https URL of at most 400 characters', [
      'employerAttributes',
      'countrySpecificAttributes',
      index,
      'websiteUrl',
    ]);
  }
}

/** The attributes after applying `patch` to `stored`. */
export function patchedAttributes(
  stored: EmployerAttributes,
  patch: EmployerAttributesInput,
  employerName: string | null,
): EmployerAttributes {
  const next: EmployerAttributes = {
    ...stored,
    countries: { ...stored.countries },
    locales: { ...stored.locales },
  };
  if (patch.employerType) next.employerType = patch.employerType;
  const base: InputPath = ['employerAttributes'];
  const countries = boundedList(
    patch.countrySpecificAttributes,
    [...base, 'countrySpecificAttributes'],
    50,
  );
  const seen = new Set<string>();
  for (const [index, entry] of countries.entries()) {
    const path = [...base, 'countrySpecificAttributes', index];
    const country = knownCountry(entry.country, [...path, 'country']);
    unique(seen, country, path, 'country');
    next.countries[country] = countryEntry(entry, path, index, country, next.employerType);
  }
  const locales = boundedList(
    patch.localeSpecificAttributes,
    [...base, 'localeSpecificAttributes'],
    50,
  );
  seen.clear();
  for (const [index, entry] of locales.entries()) {
    const path = [...base, 'localeSpecificAttributes', index];
    const key = localeKey(entry, path);
    unique(seen, key, path, 'country and language');
    const checked = localeEntry(entry, path, employerName);
    next.locales[key] = checked;
    if (entry.isGlobalDefault ?? true) next.locales.ww_WW = checked;
  }
  if (patch.jpNewGradsAttributes) {
    const jp = patch.jpNewGradsAttributes;
    const planned = jp.plannedNewGraduateHires;
    if (planned != null && planned < 0) {
      throw new InputProblem('plannedNewGraduateHires must not be negative', [
        ...base,
        'jpNewGradsAttributes',
        'plannedNewGraduateHires',
      ]);
    }
    next.jpNewGrads = Object.fromEntries(Object.entries(jp).filter(([, value]) => value != null));
  }
  return next;
}

function unique(seen: Set<string>, key: string, path: InputPath, what: string): void {
  if (seen.has(key)) throw new InputProblem(`two entries have the same ${what}`, path);
  seen.add(key);
}

function countryEntry(
  entry: CountrySpecificEmployerAttributesInput,
  path: InputPath,
  index: number,
  country: string,
  employerType: string | undefined,
): Record<string, unknown> {
  const website = entry.websiteUrl;
  if (website != null && !httpUrl(website.trim(), 400)) throw new WebsiteProblem(index);
  const phone = optionalLine(entry.phoneNumber ?? entry.phoneNum, [...path, 'phoneNumber'], 30);
  if (phone !== null && !/^\+?[0-9 ().-]{5,30}$/.test(phone)) {
    throw new InputProblem('phoneNumber is not a valid phone number', [...path, 'phoneNumber']);
  }
  const taxId = optionalLine(entry.taxId, [...path, 'taxId'], 100);
  if (
    taxId !== null &&
    country === 'JP' &&
    employerType === 'JURIDICAL_PERSON' &&
    !/^\d{13}$/.test(taxId)
  ) {
    throw new InputProblem(
      'taxId of a JURIDICAL_PERSON in Japan must be its 13-digit corporate number',
      [...path, 'taxId'],
    );
  }
  return withoutNulls({
    websiteUrl: website?.trim() ?? null,
    phoneNumber: phone,
    taxId,
    employees: entry.employees ?? null,
  });
}

function localeKey(entry: LocaleSpecificEmployerAttributesInput, path: InputPath): string {
  const country = knownCountry(entry.country, [...path, 'country']);
  if (entry.language === 'ww' || country === 'WW') {
    throw new InputProblem('ww_WW is not a locale to set: use isGlobalDefault', [
      ...path,
      'language',
    ]);
  }
  return `${entry.language}_${country}`;
}

function localeEntry(
  entry: LocaleSpecificEmployerAttributesInput,
  path: InputPath,
  employerName: string | null,
): Record<string, unknown> {
  const localizedName = optionalLine(entry.localizedName, [...path, 'localizedName'], 60);
  return withoutNulls({
    localizedName: localizedName ?? employerName,
    description: optionalText(entry.description, [...path, 'description'], 10_000),
    headquarterAddress: optionalLine(
      entry.headquarterAddress,
      [...path, 'headquarterAddress'],
      500,
    ),
    leaderName: optionalLine(entry.leader?.name, [...path, 'leader', 'name'], 200),
  });
}

function withoutNulls(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value != null));
}
