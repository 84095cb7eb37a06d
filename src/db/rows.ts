/**
 * Row types of every table, exactly as the data layer reads them back on both SQLite and
 * PostgreSQL. Instants are epoch milliseconds (BIGINT); booleans are normalised by the stores.
 * GraphQL resolvers receive these rows through codegen mappers (see codegen.ts). Domain
 * vocabularies are their domains' own: `src/interviews/vocabulary.ts` (statuses, decisions, media
 * types, lobby roles), `src/accounts/vocabulary.ts` (membership roles, client types) and
 * `src/oauth/signing-keys/algorithms.ts`.
 */

import type { ClientType, MembershipRole } from '../accounts/vocabulary.js';
import type { SigningAlg } from '../oauth/signing-keys/algorithms.js';
import type {
  DecisionValue,
  EventStatus,
  IntervieweeStatus,
  LobbyRole,
  MediaType,
} from '../interviews/vocabulary.js';

export type EpochMs = number;

export interface UserRow {
  id: string;
  email: string;
  /** Lower-cased email; the unique sign-in key. */
  email_normalized: string;
  name: string | null;
  password_hash: string;
  email_verified: boolean;
  /** When the user opened a verification or password-reset link; null before. */
  email_verified_at: EpochMs | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface EmployerRow {
  id: string;
  name: string;
  created_at: EpochMs;
}

export interface MembershipRow {
  user_id: string;
  employer_id: string;
  role: MembershipRole;
  created_at: EpochMs;
}

export interface AppRow {
  id: string;
  client_id: string;
  owner_user_id: string;
  name: string;
  client_type: ClientType;
  /** SHA-256 of the client secret, hex; null for public clients. What authentication checks. */
  client_secret_hash: string | null;
  /** The secret sealed under KEY_ENCRYPTION_SECRET, for the console's password-gated reveal only. */
  client_secret_sealed: string | null;
  secret_updated_at: EpochMs | null;
  /** Free text from the partner; null when none was given. */
  description: string | null;
  /** Space-separated grants the token endpoint accepts from this app. */
  grant_types: string;
  /** Who publishes the app, as the consent page names it; null: the owner's name is shown. */
  developer_name: string | null;
  /** https addresses the consent page links to (the logo is shown); null when not given. */
  homepage_url: string | null;
  privacy_policy_url: string | null;
  logo_url: string | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface AppRedirectUriRow {
  id: number;
  app_id: string;
  uri: string;
  position: number;
  created_at: EpochMs;
}

export interface AuthorizationCodeRow {
  code_hash: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  nonce: string | null;
  employer_id: string | null;
  auth_time: EpochMs;
  expires_at: EpochMs;
  consumed_at: EpochMs | null;
  created_at: EpochMs;
}

export interface AccessTokenRow {
  jti: string;
  app_id: string;
  user_id: string | null;
  employer_id: string | null;
  scope: string;
  auth_code_hash: string | null;
  refresh_family_id: string | null;
  issued_at: EpochMs;
  expires_at: EpochMs;
  revoked_at: EpochMs | null;
}

export interface RefreshTokenFamilyRow {
  id: string;
  app_id: string;
  user_id: string;
  scope: string;
  auth_code_hash: string | null;
  auth_time: EpochMs;
  created_at: EpochMs;
  revoked_at: EpochMs | null;
  revoked_reason: string | null;
}

export interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  employer_id: string | null;
  issued_at: EpochMs;
  expires_at: EpochMs;
  consumed_at: EpochMs | null;
}

export interface ConsentRow {
  id: string;
  user_id: string;
  app_id: string;
  /** The granted scopes, sorted and space-separated, so one scope set has one spelling. */
  scope_set: string;
  granted_at: EpochMs;
}

export interface SigningKeyRow {
  kid: string;
  alg: SigningAlg;
  /** Public JWK as JSON text. */
  public_jwk: string;
  /** Private key (PKCS#8) encrypted with KEY_ENCRYPTION_SECRET; never logged. */
  private_key_encrypted: string;
  created_at: EpochMs;
  /** From this instant the key signs; a rotated key is published for a while before. */
  activates_at: EpochMs;
  /** When a newer key of the same algorithm takes over signing (it may lie in the future). */
  superseded_at: EpochMs | null;
  /** After this instant no unexpired token can carry this key's signature; it leaves the JWKS. */
  retire_after: EpochMs | null;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

/** A single-use link mailed to a user, keyed by the SHA-256 of its token. */
export interface EmailTokenRow {
  id_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  created_at: EpochMs;
  expires_at: EpochMs;
  used_at: EpochMs | null;
}

export interface BrowserSessionRow {
  id_hash: string;
  user_id: string;
  csrf_secret: string;
  created_at: EpochMs;
  last_seen_at: EpochMs;
  expires_at: EpochMs;
}

/** Attempts counted under one hashed key in the window that ends at `resets_at`. */
export interface RateLimitWindowRow {
  key: string;
  hits: number;
  resets_at: EpochMs;
}

/** A new client secret waiting, sealed, for its one display on the console. */
export interface SecretRevealRow {
  session_id_hash: string;
  client_id: string;
  secret_encrypted: string;
  expires_at: EpochMs;
}

export interface AuditEventRow {
  id: number;
  occurred_at: EpochMs;
  type: string;
  actor_user_id: string | null;
  app_id: string | null;
  employer_id: string | null;
  request_id: string | null;
  ip: string | null;
  /** JSON text with event-specific details; never holds a secret. */
  details: string | null;
}

export interface EventRow {
  id: string;
  employer_id: string;
  created_by_app_id: string;
  created_by_user_id: string | null;
  title: string;
  start_at: EpochMs;
  /** UTC offset, in minutes, that the caller used for startTime; echoed back on reads. */
  start_offset_minutes: number;
  end_at: EpochMs;
  end_offset_minutes: number;
  timezone: string;
  language_code: string | null;
  country_code: string | null;
  media_type: MediaType;
  status: EventStatus;
  ats_name: string;
  employer_name: string | null;
  started_at: EpochMs | null;
  ended_at: EpochMs | null;
  archived_at: EpochMs | null;
  cancelled_at: EpochMs | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface InterviewerRow {
  id: string;
  event_id: string;
  email: string;
  /** Lower-cased email; unique per event so that duplicate invitations collapse. */
  email_normalized: string;
  name: string | null;
  user_id: string | null;
  position: number;
  created_at: EpochMs;
}

export interface IntervieweeRow {
  id: string;
  event_id: string;
  name: string;
  email: string;
  status: IntervieweeStatus;
  job_employer_job_id: string | null;
  job_title: string | null;
  job_location: string | null;
  checked_in_at: EpochMs | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface InterviewRecordRow {
  id: string;
  event_id: string;
  interviewee_id: string;
  start_at: EpochMs | null;
  end_at: EpochMs | null;
  recording_url: string | null;
  created_at: EpochMs;
  /** When the room of a started interview last became empty; null while anyone is in it. */
  room_emptied_at?: EpochMs | null;
}

export interface RoomConnectionRow {
  id: string;
  event_id: string;
  role: 'interviewer' | 'interviewee';
  participant_id: string;
  video: boolean;
  connected_at: EpochMs;
  seen_at: EpochMs;
}

export interface InterviewOutcomeRow {
  id: string;
  record_id: string;
  interviewer_id: string;
  decision: DecisionValue | null;
  note_text: string | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface LobbyTokenRow {
  id: string;
  event_id: string;
  interviewee_id: string | null;
  role: LobbyRole;
  /** SHA-256 of the capability token: the lookup path when a lobby URL is opened. */
  token_hash: string;
  /** The token itself, encrypted, so that the API can return the URL again on every read. */
  token_encrypted: string;
  created_at: EpochMs;
}

export interface RecordingRow {
  id: string;
  event_id: string;
  /** The interview record the recording belongs to (the one open when it started). */
  record_id: string;
  /** The interviewer whose browser records and uploads. */
  started_by: string;
  /** SHA-256 of the streaming capability token. */
  token_hash: string;
  /** The token itself, sealed, so that the API can show the URL again on every read. */
  token_sealed: string;
  /** Acknowledged length of the file; anything after it is an unacknowledged tail. */
  bytes: number;
  /** Acknowledged chunks; the next chunk's sequence number. */
  chunks: number;
  status: 'recording' | 'stopped';
  started_at: EpochMs;
  stopped_at: EpochMs | null;
  /** When retention deleted the file; the streaming URL answers 404 from then on. */
  deleted_at: EpochMs | null;
  /** When the stopped recording became final (rewritten seekable, or kept as recorded). */
  finalised_at: EpochMs | null;
  /** Whether the file served is the seekable copy (`bytes` is then its length); 0/1 on SQLite. */
  seekable: boolean | number;
}

/** A chunk of a recording: claimed by one request, then committed with the recording's counts. */
export interface RecordingChunkRow {
  recording_id: string;
  seq: number;
  /** Where the chunk starts in the file (the recording's committed bytes when it was claimed). */
  start_byte: number;
  size: number;
  /** SHA-256 of its bytes, hex: a retry with the same bytes is told from different content. */
  digest: string;
  /** The request holding the claim. */
  claim_id: string;
  claimed_at: EpochMs;
  /** Null while claimed; once set, the chunk is acknowledged and never changes. */
  committed_at: EpochMs | null;
}

export interface WebhookEndpointRow {
  id: string;
  app_id: string;
  url: string;
  description: string | null;
  /** `,type,type,`; empty for every type. */
  event_types: string;
  /** `,employer id,...,`; empty for every employer of the app. */
  employer_ids: string;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: EpochMs | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: EpochMs | null;
  failing_since: EpochMs | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryRow {
  id: number;
  message_id: string;
  endpoint_id: string;
  app_id: string;
  type: string;
  subject: string;
  sequence: number;
  employer_id: string | null;
  occurred_at: EpochMs;
  /** The envelope's `data`, as JSON text. */
  data: string;
  status: WebhookDeliveryStatus;
  attempt_count: number;
  next_attempt_at: EpochMs;
  leased_until: EpochMs | null;
  last_attempt_at: EpochMs | null;
  last_status_code: number | null;
  delivered_at: EpochMs | null;
  created_at: EpochMs;
}

export interface WebhookAttemptRow {
  id: number;
  delivery_id: number;
  attempted_at: EpochMs;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

/** Where a persisted GraphQL document came from: `cli graphql persist`, or a client's APQ. */
export type PersistedDocumentSource = 'registered' | 'automatic';

export interface PersistedDocumentRow {
  /** Lower-case hexadecimal SHA-256 of `document` (UTF-8). */
  hash: string;
  document: string;
  source: PersistedDocumentSource;
  registered_at: EpochMs;
}

/** What an event's participants were last mailed (src/calendar-mail). */
export interface CalendarInvitationRow {
  event_id: string;
  sequence: number;
  /** JSON of a CalendarSnapshot: the event and its participants as last mailed. */
  snapshot: string;
  updated_at: EpochMs;
}

export type CalendarMailKind = 'invitation' | 'update' | 'cancellation' | 'reminder';
export type CalendarMailStatus = 'pending' | 'sent' | 'skipped' | 'failed';

/** One calendar mail to one participant, written in the transaction of the change. */
export interface CalendarMailRow {
  id: number;
  event_id: string;
  kind: CalendarMailKind;
  recipient_email: string;
  recipient_role: 'interviewee' | 'interviewer';
  interviewee_id: string | null;
  sequence: number;
  /** JSON of a CalendarSnapshot: the event as it was when the mail was written. */
  snapshot: string;
  minutes_before: number | null;
  status: CalendarMailStatus;
  attempt_count: number;
  due_at: EpochMs;
  leased_until: EpochMs | null;
  last_error: string | null;
  sent_at: EpochMs | null;
  created_at: EpochMs;
}

/** An app's calendar mail switches; an app without a row has both on. */
export interface CalendarMailAppSettingsRow {
  app_id: string;
  invitations: boolean;
  reminders: boolean;
  updated_at: EpochMs;
}
