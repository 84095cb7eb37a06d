import type { PostingSnapshot } from '../../job-sync/posting-snapshot.js';
import { seededRandom } from '../../seeded-random.js';
import type { CityIndex } from '../places/city-index.js';
import {
  BENEFITS,
  COMMON_SENTENCES,
  COMPANY_FIRST,
  COMPANY_SECOND,
  COMPANY_SUFFIX,
  FIELD_SENTENCES,
  JOB_TYPES,
  ROLES,
  SENIORITY,
  WORKPLACES,
} from './vocabulary.js';

/** Where seeded postings go: Job Sync (`jobs seed`), or straight into the index (the bench). */
export interface PostingSink {
  accept(postings: readonly PostingSnapshot[]): Promise<void>;
}

export interface SeedOptions {
  count: number;
  /** Postings handed to the sink at once. */
  batchSize: number;
  /** Who the postings belong to (apps.id and employers.id). */
  appId: string;
  employerId: string;
  /** Publication dates fall within this many days before `now`. */
  spreadDays: number;
  now: number;
  /** The same seed makes the same postings. */
  seed: number;
}

const DAY = 86_400_000;
/** Seeded postings go live this long after they are published (or now, if sooner). */
const INDEXING_DELAY = 5 * 60_000;

const CURRENCIES: Readonly<Record<string, string>> = {
  US: 'USD',
  GB: 'GBP',
  CA: 'CAD',
  AU: 'AUD',
  IN: 'INR',
  JP: 'JPY',
  CN: 'CNY',
  BR: 'BRL',
  MX: 'MXN',
  DE: 'EUR',
  FR: 'EUR',
  ES: 'EUR',
  IT: 'EUR',
  NL: 'EUR',
  BE: 'EUR',
  AT: 'EUR',
  IE: 'EUR',
  PT: 'EUR',
  FI: 'EUR',
};

/**
 * Loads `count` realistic postings into `sink` in batches: titles and companies from the word
 * lists, places drawn from the GeoNames cities in proportion to their population (so big cities
 * get many postings, as on a real job board). Reports progress after each batch.
 */
export async function seedPostings(
  options: SeedOptions,
  cities: CityIndex,
  sink: PostingSink,
  progress: (done: number) => void = () => {},
): Promise<void> {
  const random = seededRandom(options.seed);
  let done = 0;
  while (done < options.count) {
    const size = Math.min(options.batchSize, options.count - done);
    const batch = Array.from({ length: size }, (_, index) =>
      seededPosting(done + index, options, cities, random),
    );
    await sink.accept(batch);
    done += size;
    progress(done);
  }
}

function seededPosting(
  index: number,
  options: SeedOptions,
  cities: CityIndex,
  random: () => number,
): PostingSnapshot {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const [role, field] = pick(ROLES);
  const title = [pick(SENIORITY), role].filter(Boolean).join(' ');
  const company = [pick(COMPANY_FIRST), pick(COMPANY_SECOND), pick(COMPANY_SUFFIX)]
    .filter(Boolean)
    .join(' ');
  const city = cities.byPopulationShare(random());
  const fill = (sentence: string) =>
    sentence.replace('{company}', company).replace('{title}', title);
  const description = [
    pick(COMMON_SENTENCES),
    ...(FIELD_SENTENCES[field] ?? []),
    pick(COMMON_SENTENCES),
  ]
    .map(fill)
    .join('\n\n');
  const datePublished = options.now - Math.floor(random() * options.spreadDays * DAY);
  const activeFrom = Math.min(options.now, datePublished + INDEXING_DELAY);
  const id = uuidFrom(random);
  const currency = CURRENCIES[city.country] ?? 'USD';
  const yearly = 30_000 + Math.floor(random() * 150) * 1000;
  const minorUnits = currency === 'JPY' ? 1 : 100;
  const workplace = pick(WORKPLACES);
  return {
    sourcedPostingId: id,
    employerJobId: Buffer.from(`iri://apis.indeed.com/EmployerJob/${id}`).toString('base64'),
    appId: options.appId,
    employerId: options.employerId,
    jobPostingId: `SEED-${options.seed}-${index}`,
    sourceName: `${company} Careers`,
    sourceType: 'Employer',
    companyName: company,
    companyWebsite: null,
    title,
    subtitle: null,
    description,
    descriptionFormatting: 'TEXT',
    location: {
      country: city.country,
      cityRegionPostal: city.country === 'US' ? `${city.name}, ${city.adminCode}` : city.name,
      streetAddress: null,
    },
    salary:
      random() < 0.6
        ? {
            currency,
            minimumMinor: String(yearly * minorUnits),
            maximumMinor: String((yearly + 20_000) * minorUnits),
            period: 'YEAR',
          }
        : null,
    jobTypes: [pick(JOB_TYPES), ...(workplace ? [workplace] : [])],
    benefits: BENEFITS.filter(() => random() < 0.4),
    url: null,
    datePublished,
    activeFrom,
    expiredAt: null,
    updatedAt: activeFrom,
  };
}

/** A version 4 UUID from the seeded generator, so that a seed makes the same ids. */
function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}
