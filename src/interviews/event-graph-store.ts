import type { Dialect, Row } from '../db/dialects/index.js';
import type { EventRow, IntervieweeRow, InterviewerRow } from '../db/rows.js';
import { sqlByShape } from '../db/sql-shapes.js';
import type { EventGraph, EventParts, LobbyTokenLink } from './event-graph.js';

const INTERVIEWER: Record<keyof InterviewerRow, true> = {
  id: true,
  event_id: true,
  email: true,
  email_normalized: true,
  name: true,
  user_id: true,
  position: true,
  created_at: true,
};
const INTERVIEWEE: Record<keyof IntervieweeRow, true> = {
  id: true,
  event_id: true,
  name: true,
  email: true,
  status: true,
  job_employer_job_id: true,
  job_title: true,
  job_location: true,
  checked_in_at: true,
  created_at: true,
  updated_at: true,
};
const LOBBY_TOKEN: Record<keyof LobbyTokenLink, true> = {
  role: true,
  interviewee_id: true,
  token_encrypted: true,
};

/** Result columns of the lists; no column of interview_events has these names. */
const LIST_COLUMNS = {
  interviewers: 'interviewers__json',
  interviewees: 'interviewees__json',
  lobbyTokens: 'lobby_tokens__json',
} as const;

/**
 * The SQL of an event read together with its lists (see EventGraph), for the stores that read
 * events: select-list expressions that bring `parts` of the event whose row `event` names (a table or its
 * alias in the enclosing query) as JSON arrays, each one correlated subquery over its index.
 */
export function eventPartColumns(dialect: Dialect, parts: EventParts, event: string): string[] {
  const { json } = dialect;
  const list = (
    table: string,
    columns: Record<string, true>,
    orderBy: string,
    as: string,
  ): string => {
    const element = json.object(Object.keys(columns).map((column) => [column, `p.${column}`]));
    return (
      `(select ${json.arrayOf(element, orderBy)} from ${table} p ` +
      `where p.event_id = ${event}.id) as ${as}`
    );
  };
  const columns: string[] = [];
  if (parts.interviewers) {
    columns.push(list('interviewers', INTERVIEWER, 'p.position, p.id', LIST_COLUMNS.interviewers));
  }
  if (parts.interviewees) {
    columns.push(list('interviewees', INTERVIEWEE, 'p.id', LIST_COLUMNS.interviewees));
  }
  if (parts.lobbyTokens) {
    columns.push(list('lobby_tokens', LOBBY_TOKEN, 'p.id', LIST_COLUMNS.lobbyTokens));
  }
  return columns;
}

/** An event row read with eventPartColumns, split into the event and its lists. */
export function eventGraphOf(dialect: Dialect, row: Row): EventGraph {
  const {
    [LIST_COLUMNS.interviewers]: interviewers,
    [LIST_COLUMNS.interviewees]: interviewees,
    [LIST_COLUMNS.lobbyTokens]: lobbyTokens,
    ...event
  } = row;
  return {
    event: event as unknown as EventRow,
    interviewers: listOf<InterviewerRow>(dialect, interviewers),
    interviewees: listOf<IntervieweeRow>(dialect, interviewees),
    lobbyTokens: listOf<LobbyTokenLink>(dialect, lobbyTokens),
  };
}

function listOf<T>(dialect: Dialect, column: unknown): T[] | undefined {
  return column === undefined ? undefined : (dialect.json.parse(column) as T[]);
}

/**
 * The `virtualInterviewEvents` read (one employer's events by id, each with the lists `parts`
 * names) in one statement, its text built once per set of parts and number of id slots. Ids take
 * a power of two of slots, the last id repeated into the spare ones, so that a hundred possible
 * counts make eight texts. (A JSON array of ids in one binding would make one text, but SQLite
 * runs `in (select value from json_each(?))` several times slower here.) Run by
 * InterviewReadStore.
 */
export function eventsByIdsStatement(
  dialect: Dialect,
  employerId: string,
  ids: readonly string[],
  parts: EventParts,
): { sql: string; bindings: string[] } {
  let slots = 1;
  while (slots < ids.length) slots *= 2;
  const { interviewers, interviewees, lobbyTokens } = parts;
  const sql = eventsByIdsSql(dialect, slots, interviewers, interviewees, lobbyTokens);
  const padding = Array<string>(slots - ids.length).fill(ids.at(-1)!);
  return { sql, bindings: [employerId, ...ids, ...padding] };
}

const eventsByIdsSql = sqlByShape(
  (dialect, slots: number, interviewers: boolean, interviewees: boolean, lobbyTokens: boolean) => {
    const parts = eventPartColumns(dialect, { interviewers, interviewees, lobbyTokens }, 'e');
    return (
      `select ${['e.*', ...parts].join(', ')} from interview_events e ` +
      `where e.employer_id = ? and e.id in (${Array<string>(slots).fill('?').join(', ')})`
    );
  },
);
