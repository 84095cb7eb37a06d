import DataLoader from 'dataloader';
import type { EventRow, InterviewRecordRow, IntervieweeRow, InterviewerRow } from '../db/rows.js';
import type { SecretBox } from '../security/secret-box.js';
import type { EventGraph, EventParts } from './event-graph.js';
import type { InterviewerOutcome } from './interviewer-outcome.js';
import { linksFromTokens, type LobbyLinks } from './lobby-links.js';
import type { InterviewReadStore } from './read-store.js';

/**
 * Per-request batching and caching of the Interview API's nested reads. Created fresh for every
 * GraphQL request, so nothing cached outlives the request or crosses callers.
 */
export interface InterviewLoaders {
  /** Unscoped by employer: only for parents that were already read through a scoped query. */
  event: DataLoader<string, EventRow | undefined>;
  interviewersOfEvent: DataLoader<string, InterviewerRow[]>;
  intervieweesOfEvent: DataLoader<string, IntervieweeRow[]>;
  interviewer: DataLoader<string, InterviewerRow | undefined>;
  interviewee: DataLoader<string, IntervieweeRow | undefined>;
  recordsOfInterviewee: DataLoader<string, InterviewRecordRow[]>;
  /** One outcome per interviewer of the record's event, decided or not. */
  outcomesOfRecord: DataLoader<string, InterviewerOutcome[]>;
  lobbyLinks: DataLoader<string, LobbyLinks>;
  /** By record id: the streaming URL of its latest recording, or null. */
  recordingUrl: DataLoader<string, string | null>;
  /**
   * One employer's events by id with the lists `parts` names, read in one statement; the event
   * and its lists prime the loaders above, so the fields below them read nothing more.
   */
  eventGraphs(
    employerId: string,
    ids: readonly string[],
    parts: EventParts,
  ): Promise<Map<string, EventRow>>;
  /** Primes the loaders with events already read with (some of) their lists. */
  prime(graphs: readonly EventGraph[]): void;
}

/** Streaming URLs of many records' recordings, one per id in order (src/recordings). */
export type RecordingUrls = (recordIds: readonly string[]) => Promise<Array<string | null>>;

export function createInterviewLoaders(
  store: InterviewReadStore,
  lobbyTokenBox: SecretBox,
  publicUrl: string,
  recordingUrls: RecordingUrls,
): InterviewLoaders {
  const interviewer = new DataLoader(async (ids: readonly string[]) =>
    byId(ids, await store.interviewersByIds(ids)),
  );
  const interviewee = new DataLoader(async (ids: readonly string[]) =>
    byId(ids, await store.intervieweesByIds(ids)),
  );
  const loaders: InterviewLoaders = {
    event: new DataLoader(async (ids) => byId(ids, await store.eventsByIds(ids))),
    // Rows read through their event are primed by id, so that a record's interviewee or an
    // outcome's interviewer already read this way is not read a second time.
    interviewersOfEvent: new DataLoader(async (ids) =>
      grouped(ids, primed(interviewer, await store.interviewersByEventIds(ids)), eventIdOf),
    ),
    intervieweesOfEvent: new DataLoader(async (ids) =>
      grouped(ids, primed(interviewee, await store.intervieweesByEventIds(ids)), eventIdOf),
    ),
    interviewer,
    interviewee,
    recordsOfInterviewee: new DataLoader(async (ids) =>
      grouped(ids, await store.recordsByIntervieweeIds(ids), (row) => row.interviewee_id),
    ),
    outcomesOfRecord: new DataLoader(async (ids) => {
      const rows = await store.outcomesByRecordIds(ids);
      primed(
        interviewer,
        rows.map((row) => row.interviewer),
      );
      const outcomes = rows.map((row) => row.outcome);
      return grouped(ids, outcomes, (row) => row.record_id);
    }),
    lobbyLinks: new DataLoader(async (ids) => {
      const tokens = grouped(ids, await store.lobbyTokensByEventIds(ids), (row) => row.event_id);
      return tokens.map((rows) => linksFromTokens(rows, lobbyTokenBox, publicUrl));
    }),
    recordingUrl: new DataLoader(recordingUrls),
    async eventGraphs(employerId, ids, parts) {
      const graphs = await store.eventGraphsByIds(employerId, ids, parts);
      loaders.prime(graphs);
      return new Map(graphs.map(({ event }) => [event.id, event]));
    },
    prime(graphs) {
      for (const { event, interviewers, interviewees, lobbyTokens } of graphs) {
        primeKnown(loaders.event, event.id, event);
        if (interviewers) {
          primeKnown(loaders.interviewersOfEvent, event.id, primed(interviewer, interviewers));
        }
        if (interviewees) {
          primeKnown(loaders.intervieweesOfEvent, event.id, primed(interviewee, interviewees));
        }
        if (lobbyTokens) {
          const links = linksFromTokens(lobbyTokens, lobbyTokenBox, publicUrl);
          primeKnown(loaders.lobbyLinks, event.id, links);
        }
      }
    },
  };
  return loaders;
}

function primed<T extends { id: string }>(
  loader: DataLoader<string, T | undefined>,
  rows: T[],
): T[] {
  for (const row of rows) primeKnown(loader, row.id, row);
  return rows;
}

/** Values primed into each loader, readable without waiting (see loaded). */
const knownValues = new WeakMap<object, Map<string, unknown>>();

function primeKnown<V>(loader: DataLoader<string, V>, key: string, value: V): void {
  let known = knownValues.get(loader);
  if (!known) knownValues.set(loader, (known = new Map()));
  if (known.has(key)) return;
  known.set(key, value);
  loader.prime(key, value);
}

/**
 * The loader's value for `key`: the value itself when it was primed from a read already made,
 * so that a field answering from it completes without a promise (graphql's executor is much
 * cheaper on values than on promises); else the loader's promise.
 */
export function loaded<V>(loader: DataLoader<string, V>, key: string): V | Promise<V> {
  const known = knownValues.get(loader);
  return known?.has(key) ? (known.get(key) as V) : loader.load(key);
}

/** `then` for a value that may or may not be a promise yet. */
export function whenLoaded<V, R>(value: V | Promise<V>, use: (value: V) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(use) : use(value);
}

const eventIdOf = (row: { event_id: string }) => row.event_id;

function byId<T extends { id: string }>(ids: readonly string[], rows: T[]): Array<T | undefined> {
  const found = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => found.get(id));
}

/** Groups rows by parent id, keeping the order the query returned them in. */
function grouped<T>(ids: readonly string[], rows: T[], parentOf: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(parentOf(row))?.push(row);
  return ids.map((id) => groups.get(id) ?? []);
}
