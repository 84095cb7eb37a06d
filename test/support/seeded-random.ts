/** A small seeded generator (mulberry32), so that a failing random case can be replayed. */
export { seededRandom } from '../../src/seeded-random.js';
