import type { PostingSnapshot } from '../job-sync/posting-snapshot.js';
import { cellsOf } from './geo-cells.js';
import type { Places } from './places/places.js';
import { titleCellTermsOf } from './title-cell-terms.js';

/** A row of job_search_postings (migration 0031), as stores read and write it. */
export interface SearchRow {
  sort_key: number;
  sourced_posting_id: string;
  employer_job_id: string;
  title: string;
  company_name: string;
  company_website: string | null;
  source_name: string;
  description_text: string;
  description_html: string | null;
  country: string;
  city_region_postal: string | null;
  street_address: string | null;
  city: string | null;
  admin_code: string | null;
  postal_code: string | null;
  latitude: number | null;
  longitude: number | null;
  cell_fine: number | null;
  cell_coarse: number | null;
  salary_currency: string | null;
  salary_minimum_minor: string | null;
  salary_maximum_minor: string | null;
  salary_period: string | null;
  job_types: string;
  url: string | null;
  date_published: number;
  active_from: number;
  updated_at: number;
  /** The title's words joined with cell_fine (title-cell-terms.ts); empty without a place. */
  title_cell_terms: string;
}

/** Every column of a search row, in the order the table has them. */
export const SEARCH_COLUMNS: readonly (keyof SearchRow)[] = [
  'sort_key',
  'sourced_posting_id',
  'employer_job_id',
  'title',
  'company_name',
  'company_website',
  'source_name',
  'description_text',
  'description_html',
  'country',
  'city_region_postal',
  'street_address',
  'city',
  'admin_code',
  'postal_code',
  'latitude',
  'longitude',
  'cell_fine',
  'cell_coarse',
  'salary_currency',
  'salary_minimum_minor',
  'salary_maximum_minor',
  'salary_period',
  'job_types',
  'url',
  'date_published',
  'active_from',
  'updated_at',
  'title_cell_terms',
];

/**
 * The searchable document of a live posting, its place resolved offline, without its sort key
 * (the store gives it one).
 */
export function searchRowOf(posting: PostingSnapshot, places: Places): Omit<SearchRow, 'sort_key'> {
  const place = places.posting(posting.location.country, posting.location.cityRegionPostal);
  const cells = place ? cellsOf(place) : null;
  const rich = posting.descriptionFormatting === 'RICH_FORMATTING';
  return {
    sourced_posting_id: posting.sourcedPostingId,
    employer_job_id: posting.employerJobId,
    title: posting.title,
    company_name: posting.companyName,
    company_website: posting.companyWebsite,
    source_name: posting.sourceName,
    description_text: rich ? textOfHtml(posting.description) : posting.description,
    description_html: rich ? posting.description : null,
    country: posting.location.country,
    city_region_postal: posting.location.cityRegionPostal,
    street_address: posting.location.streetAddress,
    city: place?.city ?? null,
    admin_code: place?.adminCode ?? null,
    postal_code: place?.postalCode ?? null,
    latitude: place?.latitude ?? null,
    longitude: place?.longitude ?? null,
    cell_fine: cells?.cell_fine ?? null,
    cell_coarse: cells?.cell_coarse ?? null,
    title_cell_terms: titleCellTermsOf(posting.title, cells?.cell_fine ?? null),
    salary_currency: posting.salary?.currency ?? null,
    salary_minimum_minor: posting.salary?.minimumMinor ?? null,
    salary_maximum_minor: posting.salary?.maximumMinor ?? null,
    salary_period: posting.salary?.period ?? null,
    job_types: JSON.stringify(posting.jobTypes),
    url: posting.url,
    date_published: posting.datePublished,
    active_from: posting.activeFrom,
    updated_at: posting.updatedAt,
  };
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The words of an HTML description: tags dropped (blocks become line breaks), entities decoded. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?(p|div|br|li|ul|ol|h[1-6]|tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : ' ';
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}
