/**
 * Peer of createVirtualInterviewEvent: a bare node:http server, one process, that parses the
 * body the bench sends the service and inserts the same rows (bench/peers/same-writes-rows.ts)
 * in one durable transaction, then answers 200 with a small JSON document. Its database is its
 * own, created with the service's migrations: a new SQLite file (better-sqlite3) or a new
 * PostgreSQL schema (pg), after PEER_DB (`sqlite` or `postgres`; BENCH_DATABASE_URL as the
 * harness). The employer, app and user its events hang from are made as the harness makes its.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { migrateToLatest } from '../../src/db/migrate.js';
import { randomToken } from '../../src/security/random.js';
import type { SecretBox } from '../../src/security/secret-box.js';
import { benchDependencies, createBenchAccounts } from '../accounts.js';
import { createFreshDatabase, type FreshDatabase } from '../database.js';
import type { BenchDatabase } from '../options.js';
import { announce, listenOnLoopback } from './announce.js';
import { eventRows, type EventOwner } from './same-writes-rows.js';
import { postgresEventStore, sqliteEventStore, type EventRowsStore } from './same-writes-stores.js';

const BODY_LIMIT = 100 * 1024;

const engine = process.env.PEER_DB as BenchDatabase;
if (engine !== 'sqlite' && engine !== 'postgres') throw new Error('PEER_DB is sqlite or postgres');
const fresh = await createFreshDatabase(engine);
const { owner, box } = await prepare(fresh);
const store = openStore(fresh);

const server = createServer((request, response) => void answer(request, response));
announce(
  await listenOnLoopback(server, async () => {
    await store.close();
    await fresh.remove();
  }),
);

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const body = await readBody(request);
    const rows = eventRows(body, owner, box);
    await store.write(rows);
    send(response, 200, {
      data: {
        createVirtualInterviewEvent: {
          event: {
            id: rows.event.id,
            status: rows.event.status,
            interviewersConnection: { totalCount: rows.interviewers.length },
          },
        },
      },
    });
  } catch (error) {
    send(response, 500, { errors: [{ message: String(error) }] });
  }
}

function send(response: ServerResponse, status: number, document: object): void {
  const text = JSON.stringify(document);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > BODY_LIMIT) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Migrates the fresh database and makes the accounts, with the harness's own helpers. */
async function prepare(database: FreshDatabase): Promise<{ owner: EventOwner; box: SecretBox }> {
  const db = database.open();
  try {
    await migrateToLatest(db);
    const shared = benchDependencies(db, randomToken(32));
    const accounts = await createBenchAccounts(shared);
    return {
      owner: {
        employerId: accounts.employers.writes,
        appId: accounts.app.id,
        creator: accounts.owner,
      },
      box: shared.boxes.lobbyTokens,
    };
  } finally {
    await db.destroy();
  }
}

function openStore(database: FreshDatabase): EventRowsStore {
  const { config } = database;
  if (config.client === 'sqlite') return sqliteEventStore(config.filename);
  return postgresEventStore(config.connectionString, config.searchPath!);
}
