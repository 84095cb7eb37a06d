/**
 * Peer of createSourcedJobPostings: a bare node:http server, one process, that parses the body
 * the bench sends the service, turns each posting into the rows the service writes
 * (bench/peers/same-posting-writes-rows.ts: the service's input rules and search document,
 * places resolved from the same shipped data) and inserts them in one durable transaction, then
 * answers 200 with each posting's ids. Its database is its own, created with the service's
 * migrations: a new SQLite file (better-sqlite3) or a new PostgreSQL schema (pg), after PEER_DB
 * (`sqlite` or `postgres`; BENCH_DATABASE_URL as the harness). The app and employer its
 * postings belong to are made as the harness makes its.
 */
import { placesOfThisProcess } from '../../src/job-search/places/places.js';
import { createFreshDatabase } from '../database.js';
import { postingRows, type PostingsOwner } from './same-posting-writes-rows.js';
import { postgresPostingStore, sqlitePostingStore } from './same-posting-writes-stores.js';
import { openPeerStore, peerEngine, preparePeerDatabase, serveWrites } from './writes-peer.js';

const places = placesOfThisProcess();
const [fresh] = await Promise.all([createFreshDatabase(peerEngine()), places.ready()]);
const { owner, bodyLimitBytes } = await preparePeerDatabase(fresh, (shared, accounts) => ({
  owner: {
    appId: accounts.app.id,
    employerId: accounts.employers.writes,
    indexingDelayMs: shared.config.jobSync.indexingDelayMs,
  } satisfies PostingsOwner,
  bodyLimitBytes: shared.config.jobSync.bodyLimitBytes,
}));
const store = openPeerStore(fresh, { sqlite: sqlitePostingStore, postgres: postgresPostingStore });

await serveWrites({
  fresh,
  store,
  bodyLimitBytes,
  async handle(body) {
    const rows = postingRows(body, owner, places);
    await store.write(rows);
    return {
      data: {
        jobsIngest: {
          createSourcedJobPostings: {
            results: rows.postings.map((posting, index) => ({
              jobPosting: {
                sourcedPostingId: posting.sourced_posting_id,
                employerJobId: rows.searchRows[index]!.employer_job_id,
              },
            })),
          },
        },
      },
    };
  },
});
