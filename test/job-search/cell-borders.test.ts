import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { composeJobSearch, type JobSearchCapability } from '../../src/job-search/compose.js';
import { cellsOf } from '../../src/job-search/geo-cells.js';
import { distanceKm, KM_PER_MILE, type Point } from '../../src/job-search/geo.js';
import { Places, placesOfThisProcess, type Place } from '../../src/job-search/places/places.js';
import type { SearchArguments } from '../../src/job-search/search-request.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { changed, HOUR, posting } from './postings.js';

const NOW = Date.UTC(2026, 10, 1);
const RADIUS_KM = 25 * KM_PER_MILE;
const KM_PER_DEGREE_OF_LATITUDE = (Math.PI * 6371.0088) / 180;

/** The shipped places, but a posting whose cityRegionPostal is a pin's name is at the pin. */
class PinnedPlaces extends Places {
  constructor(
    private readonly shipped: Places,
    private readonly pins: ReadonlyMap<string, Point>,
  ) {
    super();
  }

  override ready(): Promise<void> {
    return this.shipped.ready();
  }

  override get cities() {
    return this.shipped.cities;
  }

  override search(where: string): Place | null {
    return this.shipped.search(where);
  }

  override posting(country: string, cityRegionPostal: string | null): Place | null {
    const pin = cityRegionPostal ? this.pins.get(cityRegionPostal) : undefined;
    if (!pin) return this.shipped.posting(country, cityRegionPostal);
    return { ...pin, city: cityRegionPostal, country, adminCode: 'TX', postalCode: null };
  }
}

/** The point `km` from `from` towards north (0°) or east (90°) or west (270°), on a sphere. */
function towards(from: Point, bearing: 0 | 90 | 270, km: number): Point {
  if (bearing === 0) return { ...from, latitude: from.latitude + km / KM_PER_DEGREE_OF_LATITUDE };
  const perDegree = KM_PER_DEGREE_OF_LATITUDE * Math.cos((from.latitude * Math.PI) / 180);
  // Along a parallel the great-circle distance is a little shorter: search for the longitude.
  let low = 0;
  let high = (2 * km) / perDegree;
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    const point = { ...from, longitude: from.longitude + (bearing === 90 ? middle : -middle) };
    if (distanceKm(from, point) < km) low = middle;
    else high = middle;
  }
  return { ...from, longitude: from.longitude + (bearing === 90 ? low : -low) };
}

/**
 * A text and radius search reads the index by grid cell: postings just inside and just outside
 * the circle, in cells other than the centre's, found or not on both databases.
 */
describeEachDialect('job search across grid cells', (database) => {
  let jobs: JobSearchCapability;
  let austin: Point;
  const pins = new Map<string, Point>();

  before(async () => {
    const shipped = placesOfThisProcess();
    await shipped.ready();
    austin = shipped.search('Austin, TX')!;
    const at = (bearing: 0 | 90 | 270, km: number) => towards(austin, bearing, km);
    pins.set('north inside', at(0, RADIUS_KM - 0.3));
    pins.set('north outside', at(0, RADIUS_KM + 0.3));
    pins.set('east inside', at(90, RADIUS_KM - 0.3));
    pins.set('east outside', at(90, RADIUS_KM + 0.3));
    pins.set('west inside', at(270, RADIUS_KM - 0.3));
    pins.set('west outside', at(270, RADIUS_KM + 0.3));
  });

  beforeEach(async () => {
    const { db } = database();
    await db('job_search_postings').delete();
    const places = new PinnedPlaces(placesOfThisProcess(), pins);
    jobs = composeJobSearch(testSharedDependencies(db, { clock: new ManualClock(NOW) }), places);
    let hoursAgo = 0;
    const at = (where: string, title: string, description = 'Build and run our services.') =>
      posting({
        title,
        description,
        location: { cityRegionPostal: where, country: 'US' },
        datePublished: NOW - ++hoursAgo * HOUR,
      });
    await changed(
      db,
      jobs.postingObserver,
      at('north inside', 'Software Engineer North'),
      at('north outside', 'Software Engineer Far North'),
      at('east inside', 'Software Engineer East'),
      at('east outside', 'Software Engineer Far East'),
      at('west inside', 'Platform Developer West', 'A software engineer for the platform.'),
      at('west outside', 'Platform Developer Far West', 'A software engineer for the platform.'),
      at('Austin, TX', 'Barista Downtown'),
      at('Berlin', 'Software Engineer Berlin'),
    );
  });

  const titles = async (args: SearchArguments) =>
    (await jobs.search.search(args)).results.map((result) => result.posting.title);
  const nearAustin = { where: 'Austin, TX', radius: 25, radiusUnit: 'MILES' as const };

  it('puts the pins in cells other than the centre, each side of the radius', () => {
    const centre = cellsOf(austin).cell_fine;
    for (const side of ['north', 'east', 'west']) {
      const inside = pins.get(`${side} inside`)!;
      const outside = pins.get(`${side} outside`)!;
      assert.notEqual(cellsOf(inside).cell_fine, centre, side);
      assert.equal(cellsOf(inside).cell_fine, cellsOf(outside).cell_fine, side);
      assert.ok(distanceKm(austin, inside) <= RADIUS_KM, side);
      assert.ok(distanceKm(austin, outside) > RADIUS_KM, side);
    }
  });

  it('finds the postings just inside the circle in every cell it spans, not those outside', async () => {
    assert.deepEqual(await titles({ what: 'software engineer', location: nearAustin }), [
      'Software Engineer North',
      'Software Engineer East',
      'Platform Developer West',
    ]);
    assert.deepEqual(
      await titles({ what: 'software engineer', location: nearAustin, sort: 'DATE' }),
      ['Software Engineer North', 'Software Engineer East', 'Platform Developer West'],
    );
  });

  it('matches stemmed words within the cells', async () => {
    assert.deepEqual(await titles({ what: 'engineers', location: nearAustin }), [
      'Software Engineer North',
      'Software Engineer East',
      'Platform Developer West',
    ]);
    assert.deepEqual(await titles({ what: 'platforms', location: nearAustin }), [
      'Platform Developer West',
    ]);
    assert.deepEqual(await titles({ what: 'barista', location: nearAustin }), ['Barista Downtown']);
    assert.deepEqual(await titles({ what: 'barista north', location: nearAustin }), []);
  });

  it('pages through the cells one result at a time, each once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof jobs.search.search>> = await jobs.search.search({
        what: 'software engineer',
        location: nearAustin,
        limit: 1,
        cursor,
      });
      seen.push(...page.results.map((result) => result.posting.title));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [
      'Software Engineer North',
      'Software Engineer East',
      'Platform Developer West',
    ]);
  });

  it('answers a text-only search everywhere and a radius-only search within the circle', async () => {
    assert.deepEqual((await titles({ what: 'software engineer', limit: 20 })).length, 7);
    assert.deepEqual(await titles({ location: nearAustin }), [
      'Software Engineer North',
      'Software Engineer East',
      'Platform Developer West',
      'Barista Downtown',
    ]);
  });
});
