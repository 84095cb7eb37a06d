import type { BenchAccounts } from '../accounts.js';

export type Stage = 'small' | 'large';
export type PeerName =
  | 'oidc-provider'
  | 'graphql-http'
  | 'express'
  | 'node-http'
  | 'same-writes'
  | 'same-posting-writes';

/** One HTTP request shape; `bodies` (one per request, used once each) replaces `body`. */
export interface Load {
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  bodies?: string[];
  /** Text every answer's body must hold under load (one that does not counts as an error). */
  bodyMustInclude?: string;
}

/** What a running service configuration hands the scenarios: its tokens (they name its URL). */
export interface ServiceTokens {
  /** client_credentials, employer = the measured employer. */
  employer: string;
  /** client_credentials, employer = the employer that createVirtualInterviewEvent writes to. */
  writes: string;
  /** authorization_code: a user token (no employer), for userinfo. */
  user: string;
}

/** What one stage's data looks like, read from the database after seeding. */
export interface StageFacts {
  /** The measured employer's events. */
  total: number;
  /** Of those, the ones starting inside `range`. */
  rangeTotal: number;
  /** `after` for the deep page of each sort. */
  deepCursors: { defaultSort: string; twoKeySort: string };
}

export interface ScenarioFixtures {
  accounts: BenchAccounts;
  /** An event of the measured employer (P2). */
  eventId: string;
  range: { after: string; before: string };
  deepPage: number;
  peerClient: { id: string; secret: string; scope: string };
  /** Fresh single-use refresh tokens of the bench app and user. */
  mintRefreshTokens(count: number): Promise<string[]>;
  /** What the oidc-provider peer issues to its client (bench/oidc-peer-tokens.ts). */
  oidcPeer: OidcPeerTokens;
}

export interface OidcPeerTokens {
  /** Fresh single-use refresh tokens, minted inside the peer (each replaces the last pool). */
  refreshTokens(count: number): Promise<string[]>;
  /** A new client_credentials access token. */
  accessToken(): Promise<string>;
}

export type Subject = { kind: 'service' } | { kind: 'peer'; peer: PeerName };

/** What a measurement is compared with, and the target when there is one. */
export type Comparison =
  /** req/s against a peer scenario's, measured in the same rounds. */
  | { kind: 'peer'; scenario: string; min?: number }
  /** p50 at the large stage against the same scenario's p50 at the small stage. */
  | { kind: 'growth'; max?: number };

export interface Scenario {
  name: string;
  subject: Subject;
  stages: readonly Stage[];
  /** One request at a time (P3: p50 is what matters), or the full load. */
  serial: boolean;
  graphql: boolean;
  comparison?: Comparison;
  /** What each request carries many of (100 postings): the report shows them per second too. */
  items?: { name: string; perRequest: number };
  /**
   * The most single-use bodies minted per second of a measurement, for bodies too large to mint
   * the default pool of (a target faster than this runs out, which the table shows).
   */
  maxBodiesPerSecond?: number;
  /** The shortest measurement of it, whatever --seconds says: for requests that take a second. */
  minSeconds?: number;
  /** The most connections of its full load, whatever --connections says. */
  maxConnections?: number;
  /** The request to send; called before every measurement (refresh tokens are single-use). */
  load(input: {
    fixtures: ScenarioFixtures;
    tokens?: ServiceTokens;
    stage: Stage;
    facts: StageFacts;
    /** The most requests the load may have to serve (single-use bodies are minted for them). */
    requests: number;
  }): Promise<Load>;
  /** Why a single response is not what the scenario expects; undefined when it is. */
  problem(
    response: ProbeResponse,
    context: { fixtures: ScenarioFixtures; facts: StageFacts },
  ): string | undefined;
}

export interface ProbeResponse {
  status: number;
  body: unknown;
}
