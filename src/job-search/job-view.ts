import { attributesOf } from './job-attributes.js';
import type { SearchRow } from './indexed-posting.js';
import { countryName } from './places/place-names.js';

export type UnitOfWork = 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';

export type SalaryRange =
  | { __typename: 'Range'; min: number; max: number }
  | { __typename: 'AtLeast'; min: number }
  | { __typename: 'Exactly'; value: number };

const UNITS: ReadonlySet<string> = new Set(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']);

const UNIT_WORDS: Record<string, string> = {
  HOUR: 'an hour',
  DAY: 'a day',
  WEEK: 'a week',
  MONTH: 'a month',
  YEAR: 'a year',
  MILE: 'a mile',
  TASK: 'a task',
  SHIFT: 'a shift',
};

/** A posting's pay as search shows it; null when it states none. */
export function compensationOf(row: SearchRow) {
  if (!row.salary_currency || row.salary_minimum_minor === null) return null;
  const range = salaryRangeOf(row);
  const period = row.salary_period ?? '';
  return {
    currencyCode: row.salary_currency,
    baseSalary: UNITS.has(period) && range ? { unitOfWork: period as UnitOfWork, range } : null,
    estimated: null,
  };
}

function salaryRangeOf(row: SearchRow): SalaryRange | null {
  const digits = fractionDigits(row.salary_currency!);
  const major = (minor: string) => Number(minor) / 10 ** digits;
  const min = major(row.salary_minimum_minor!);
  if (!Number.isFinite(min)) return null;
  if (row.salary_maximum_minor === null) return { __typename: 'AtLeast', min };
  const max = major(row.salary_maximum_minor);
  return max === min ? { __typename: 'Exactly', value: min } : { __typename: 'Range', min, max };
}

/** The pay in words: "$120,000 - $150,000 a year"; null when the posting states none. */
export function detailedSalaryOf(row: SearchRow): string | null {
  const range = row.salary_currency ? salaryRangeOf(row) : null;
  if (!range) return null;
  const money = moneyFormat(row.salary_currency!);
  const amount =
    range.__typename === 'Range'
      ? `${money.format(range.min)} - ${money.format(range.max)}`
      : range.__typename === 'AtLeast'
        ? `From ${money.format(range.min)}`
        : money.format(range.value);
  const per = UNIT_WORDS[row.salary_period ?? ''];
  return per ? `${amount} ${per}` : amount;
}

/**
 * Each currency's format, made once: a search page formats a salary per result, and making an
 * `Intl.NumberFormat` costs tens of microseconds where using one costs about one. Currencies are
 * ISO 4217 codes (Job Sync's rules), a few hundred at most; the cache is bounded all the same.
 */
const MOST_CURRENCIES = 512;
const moneyFormats = new Map<string, { format: Intl.NumberFormat; fractionDigits: number }>();

function currencyFormat(currency: string): { format: Intl.NumberFormat; fractionDigits: number } {
  let known = moneyFormats.get(currency);
  if (!known) {
    let fractionDigits = 2;
    try {
      fractionDigits =
        new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      // An unknown code: two digits, as most currencies have.
    }
    known = {
      fractionDigits,
      format: new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        // Whole amounts without cents: "$120,000".
        minimumFractionDigits: 0,
        maximumFractionDigits: fractionDigits,
      }),
    };
    if (moneyFormats.size >= MOST_CURRENCIES) {
      moneyFormats.delete(moneyFormats.keys().next().value as string);
    }
    moneyFormats.set(currency, known);
  }
  return known;
}

function fractionDigits(currency: string): number {
  return currencyFormat(currency).fractionDigits;
}

function moneyFormat(currency: string): Intl.NumberFormat {
  return currencyFormat(currency).format;
}

/** Where the job is, as search shows it. */
export function locationOf(row: SearchRow) {
  const country = countryName(row.country);
  const city = row.city ?? firstPart(row.city_region_postal);
  const region = row.country === 'US' ? row.admin_code : country;
  const short = [city, region].filter(Boolean).join(', ') || country || row.country;
  const withPostal = row.postal_code ? `${short} ${row.postal_code}` : short;
  const long =
    row.country === 'US' || !region ? `${withPostal}, ${country ?? row.country}` : withPostal;
  return {
    countryName: country,
    countryCode: row.country,
    admin1Code: row.admin_code,
    city,
    postalCode: row.postal_code,
    streetAddress: row.street_address,
    formatted: { short, long },
  };
}

function firstPart(text: string | null): string | null {
  const part = text?.split(',')[0]?.trim();
  return part && !/^\d/.test(part) ? part : null;
}

/** The description as HTML: the partner's own, or the text in escaped paragraphs. */
export function descriptionOf(row: SearchRow) {
  return {
    html:
      row.description_html ??
      row.description_text
        .split(/\n{2,}/)
        .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
        .join(''),
    text: row.description_text,
  };
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The job types of a posting as taxonomy attributes. */
export function jobAttributesOf(row: SearchRow) {
  return attributesOf(JSON.parse(row.job_types) as string[]);
}

/** The job types in words ("Full-time, Contract"); null when there are none. */
export function workScheduleOf(row: SearchRow): string | null {
  const types = JSON.parse(row.job_types) as string[];
  return types.length ? types.join(', ') : null;
}

/** The employer as search shows it: the posting's company, its website when given. */
export function employerOf(row: SearchRow) {
  return {
    name: row.company_name,
    relativeCompanyPageUrl: null,
    dossier: row.company_website
      ? { employerDetails: null, images: null, links: { corporateWebsite: row.company_website } }
      : null,
  };
}
