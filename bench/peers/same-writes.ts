/**
 * Peer of createVirtualInterviewEvent: a bare node:http server, one process, that parses the
 * body the bench sends the service and inserts the same rows (bench/peers/same-writes-rows.ts)
 * in one durable transaction, then answers 200 with a small JSON document. Its database is its
 * own, created with the service's migrations: a new SQLite file (better-sqlite3) or a new
 * PostgreSQL schema (pg), after PEER_DB (`sqlite` or `postgres`; BENCH_DATABASE_URL as the
 * harness). The employer, app and user its events hang from are made as the harness makes its.
 */
import { createFreshDatabase } from '../database.js';
import { eventRows, type EventOwner } from './same-writes-rows.js';
import { postgresEventStore, sqliteEventStore } from './same-writes-stores.js';
import { openPeerStore, peerEngine, preparePeerDatabase, serveWrites } from './writes-peer.js';

const BODY_LIMIT = 100 * 1024;

const fresh = await createFreshDatabase(peerEngine());
const { owner, box } = await preparePeerDatabase(fresh, (shared, accounts) => ({
  owner: {
    employerId: accounts.employers.writes,
    appId: accounts.app.id,
    creator: accounts.owner,
  } satisfies EventOwner,
  box: shared.boxes.lobbyTokens,
}));
const store = openPeerStore(fresh, { sqlite: sqliteEventStore, postgres: postgresEventStore });

await serveWrites({
  fresh,
  store,
  bodyLimitBytes: BODY_LIMIT,
  async handle(body) {
    const rows = eventRows(body, owner, box);
    await store.write(rows);
    return {
      data: {
        createVirtualInterviewEvent: {
          event: {
            id: rows.event.id,
            status: rows.event.status,
            interviewersConnection: { totalCount: rows.interviewers.length },
          },
        },
      },
    };
  },
});
