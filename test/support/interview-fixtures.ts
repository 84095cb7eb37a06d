import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database.js';
import type {
  EventRow,
  InterviewOutcomeRow,
  InterviewRecordRow,
  IntervieweeRow,
  InterviewerRow,
  LobbyTokenRow,
} from '../../src/db/rows.js';
import type { Principal } from '../../src/oauth/principal.js';
import { randomToken, sha256Hex } from '../../src/security/random.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { TEST_KEY_ENCRYPTION_SECRET } from './service.js';

/** An owner user, an employer and an app: the minimum an interview event hangs from. */
export async function insertTenant(db: Database, label = 'tenant') {
  const now = Date.now();
  const userId = randomUUID();
  const employerId = randomUUID();
  const appId = randomUUID();
  await db('users').insert({
    id: userId,
    email: `${label}-${userId}@example.com`,
    email_normalized: `${label}-${userId}@example.com`,
    password_hash: 'unused',
    email_verified: true,
    created_at: now,
    updated_at: now,
  });
  await db('employers').insert({ id: employerId, name: `${label} employer`, created_at: now });
  await db('memberships').insert({
    user_id: userId,
    employer_id: employerId,
    role: 'admin',
    created_at: now,
  });
  await db('apps').insert({
    id: appId,
    client_id: randomToken(12),
    owner_user_id: userId,
    name: `${label} app`,
    client_type: 'confidential',
    client_secret_hash: sha256Hex('unused'),
    created_at: now,
    updated_at: now,
  });
  return { userId, employerId, appId };
}

/** What the bearer check makes of `tenant`'s app holding an employer token (client credentials). */
export function employerAppPrincipal(tenant: {
  userId: string;
  employerId: string;
  appId: string;
}): Principal {
  return {
    kind: 'app',
    appId: tenant.appId,
    ownerUserId: tenant.userId,
    clientId: 'c',
    jti: 'j',
    employerId: tenant.employerId,
    scopes: ['employer_access'],
  };
}

/**
 * A scheduled event row of `tenant`, as the writer would store it, for tests that insert rows in
 * bulk; `fields` replaces any of its columns (times, title, offsets).
 */
export function scheduledEventRow(
  tenant: { employerId: string; appId: string; userId: string },
  fields: Partial<EventRow> & Pick<EventRow, 'start_at' | 'end_at'>,
): EventRow {
  return {
    id: randomUUID(),
    employer_id: tenant.employerId,
    created_by_app_id: tenant.appId,
    created_by_user_id: tenant.userId,
    title: 'Interview',
    start_offset_minutes: 0,
    end_offset_minutes: 0,
    timezone: 'UTC',
    language_code: null,
    country_code: null,
    media_type: 'VIDEO',
    status: 'SCHEDULED',
    ats_name: 'Test ATS',
    employer_name: null,
    started_at: null,
    ended_at: null,
    archived_at: null,
    cancelled_at: null,
    created_at: 0,
    updated_at: 0,
    ...fields,
  };
}

export interface EventGraph {
  event: EventRow;
  interviewers: InterviewerRow[];
  interviewee: IntervieweeRow;
  record: InterviewRecordRow;
  outcome: InterviewOutcomeRow;
  tokens: Record<'landing' | 'interviewer' | 'interviewee', string>;
}

/** A fully populated event: two interviewers, an interviewee with a record and an outcome. */
export async function insertEventGraph(
  db: Database,
  tenant: { employerId: string; appId: string; userId: string },
  startAt = Date.UTC(2026, 2, 1, 14, 30),
): Promise<EventGraph> {
  const now = Date.now();
  const event: EventRow = {
    id: randomUUID(),
    employer_id: tenant.employerId,
    created_by_app_id: tenant.appId,
    created_by_user_id: tenant.userId,
    title: 'Backend engineer – first round',
    start_at: startAt,
    start_offset_minutes: -300,
    end_at: startAt + 45 * 60_000,
    end_offset_minutes: 330,
    timezone: 'America/New_York',
    language_code: 'en',
    country_code: 'US',
    media_type: 'VIDEO',
    status: 'STARTED',
    ats_name: 'Test ATS',
    employer_name: 'Acme',
    started_at: startAt,
    ended_at: null,
    archived_at: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
  };
  await db('interview_events').insert(event);
  const interviewers: InterviewerRow[] = ['Lee@Example.com', 'sam@example.com'].map(
    (email, position) => ({
      id: randomUUID(),
      event_id: event.id,
      email,
      email_normalized: email.toLowerCase(),
      name: position === 0 ? 'Lee' : null,
      user_id: null,
      position,
      created_at: now,
    }),
  );
  await db('interviewers').insert(interviewers);
  const interviewee: IntervieweeRow = {
    id: randomUUID(),
    event_id: event.id,
    name: 'Casey Candidate',
    email: 'casey@example.com',
    status: 'INTERVIEWED',
    job_employer_job_id: null,
    job_title: 'Backend engineer',
    job_location: 'Remote',
    checked_in_at: startAt,
    created_at: now,
    updated_at: now,
  };
  await db('interviewees').insert(interviewee);
  const record: InterviewRecordRow = {
    id: randomUUID(),
    event_id: event.id,
    interviewee_id: interviewee.id,
    start_at: startAt + 60_000,
    end_at: startAt + 30 * 60_000,
    recording_url: null,
    created_at: now,
  };
  await db('interview_records').insert(record);
  const outcome: InterviewOutcomeRow = {
    id: randomUUID(),
    record_id: record.id,
    interviewer_id: interviewers[1]!.id,
    decision: 'YES',
    note_text: 'Strong systems design.',
    created_at: now,
    updated_at: now,
  };
  await db('interview_outcomes').insert(outcome);

  const box = new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'lobby-tokens');
  const tokens = { landing: randomToken(), interviewer: randomToken(), interviewee: randomToken() };
  const tokenRows: LobbyTokenRow[] = (Object.keys(tokens) as Array<keyof typeof tokens>).map(
    (role) => ({
      id: randomUUID(),
      event_id: event.id,
      interviewee_id: role === 'interviewee' ? interviewee.id : null,
      role,
      token_hash: sha256Hex(tokens[role]),
      token_encrypted: box.seal(tokens[role]),
      created_at: now,
    }),
  );
  await db('lobby_tokens').insert(tokenRows);
  return { event, interviewers, interviewee, record, outcome, tokens };
}
