import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { migrateToLatest, pendingMigrations, rollbackAll } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/database.js';
import { isUniqueViolation } from '../../src/db/errors.js';
import { describeEachDialect } from '../support/databases.js';

const TABLES = [
  'users',
  'employers',
  'memberships',
  'apps',
  'app_redirect_uris',
  'signing_keys',
  'authorization_codes',
  'refresh_token_families',
  'refresh_tokens',
  'access_tokens',
  'consents',
  'browser_sessions',
  'rate_limit_windows',
  'service_probes',
  'audit_events',
  'interview_events',
  'interviewers',
  'interviewees',
  'interview_records',
  'interview_outcomes',
  'lobby_tokens',
  'secret_reveals',
  'interview_event_counts',
  'interview_event_start_day_counts',
  'change_epochs',
  'recordings',
  'room_connections',
  'email_tokens',
  'recording_chunks',
  'deployment_settings',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'app_api_access',
  'app_cost_budgets',
  'cost_budget_clients',
  'cost_budget_leases',
  'persisted_documents',
  'calendar_invitations',
  'calendar_mails',
  'calendar_mail_app_settings',
  'job_postings',
  'partner_employers',
  'partner_dispositions',
  'job_search_postings',
];

async function existingTables(db: Database): Promise<string[]> {
  const found: string[] = [];
  for (const table of TABLES) if (await db.schema.hasTable(table)) found.push(table);
  return found;
}

describeEachDialect(
  'migrations',
  (database) => {
    it('run up, down and up again', async () => {
      const { db } = database();
      assert.deepEqual(await existingTables(db), []);

      const applied = await migrateToLatest(db);
      assert.deepEqual(applied, [
        '0001_accounts',
        '0002_oauth',
        '0003_operations',
        '0004_interviews',
        '0005_secret_reveals',
        '0006_app_details',
        '0007_client_secret_sealed',
        '0008_rate_limit_windows',
        '0009_signing_key_activation',
        '0010_interview_event_counts',
        '0011_change_epochs',
        '0012_recordings',
        '0013_room_connections',
        '0014_email_verification',
        '0015_app_publisher',
        '0017_recording_chunks',
        '0018_deployment_settings',
        '0019_partial_token_indexes',
        '0020_webhooks',
        '0021_app_api_access',
        '0022_cost_budgets',
        '0023_persisted_documents',
        '0024_calendar_mails',
        '0026_recording_finalisation',
        '0027_decision_note_newlines',
        '0028_job_postings',
        '0029_partner_employers',
        '0030_partner_dispositions',
        '0031_job_search',
        '0033_disposition_retention',
        '0034_job_search_place_terms',
        '0035_job_search_title_cell_terms',
        '0036_job_search_joined_title_terms',
      ]);
      assert.deepEqual(await existingTables(db), TABLES);
      assert.deepEqual(await pendingMigrations(db), []);
      assert.deepEqual(await migrateToLatest(db), [], 'a second run has nothing to do');

      const reverted = await rollbackAll(db);
      assert.deepEqual(reverted, [
        '0036_job_search_joined_title_terms',
        '0035_job_search_title_cell_terms',
        '0034_job_search_place_terms',
        '0033_disposition_retention',
        '0031_job_search',
        '0030_partner_dispositions',
        '0029_partner_employers',
        '0028_job_postings',
        '0027_decision_note_newlines',
        '0026_recording_finalisation',
        '0024_calendar_mails',
        '0023_persisted_documents',
        '0022_cost_budgets',
        '0021_app_api_access',
        '0020_webhooks',
        '0019_partial_token_indexes',
        '0018_deployment_settings',
        '0017_recording_chunks',
        '0015_app_publisher',
        '0014_email_verification',
        '0013_room_connections',
        '0012_recordings',
        '0011_change_epochs',
        '0010_interview_event_counts',
        '0009_signing_key_activation',
        '0008_rate_limit_windows',
        '0007_client_secret_sealed',
        '0006_app_details',
        '0005_secret_reveals',
        '0004_interviews',
        '0003_operations',
        '0002_oauth',
        '0001_accounts',
      ]);
      assert.deepEqual(await existingTables(db), []);

      await migrateToLatest(db);
      assert.deepEqual(await existingTables(db), TABLES);
    });
  },
  { migrate: false },
);

describeEachDialect('schema constraints', (database) => {
  const now = Date.now();
  const ids = {
    user: randomUUID(),
    employer: randomUUID(),
    app: randomUUID(),
    event: randomUUID(),
    interviewee: randomUUID(),
    interviewer: randomUUID(),
  };

  before(async () => {
    const { db } = database();
    await db('users').insert({
      id: ids.user,
      email: 'Owner@Example.com',
      email_normalized: 'owner@example.com',
      password_hash: 'x',
      email_verified: false,
      created_at: now,
      updated_at: now,
    });
    await db('employers').insert({ id: ids.employer, name: 'Acme', created_at: now });
    await db('apps').insert({
      id: ids.app,
      client_id: 'client-1',
      owner_user_id: ids.user,
      name: 'App',
      client_type: 'confidential',
      client_secret_hash: 'a'.repeat(64),
      created_at: now,
      updated_at: now,
    });
    await db('interview_events').insert({
      id: ids.event,
      employer_id: ids.employer,
      created_by_app_id: ids.app,
      title: 'Interview',
      start_at: now,
      start_offset_minutes: -300,
      end_at: now + 3_600_000,
      end_offset_minutes: -300,
      timezone: 'America/New_York',
      media_type: 'VIDEO',
      status: 'SCHEDULED',
      ats_name: 'ATS',
      created_at: now,
      updated_at: now,
    });
    await db('interviewees').insert({
      id: ids.interviewee,
      event_id: ids.event,
      name: 'Casey',
      email: 'casey@example.com',
      status: 'RSVPED',
      created_at: now,
      updated_at: now,
    });
    await db('interviewers').insert({
      id: ids.interviewer,
      event_id: ids.event,
      email: 'Lee@Example.com',
      email_normalized: 'lee@example.com',
      position: 0,
      created_at: now,
    });
  });

  async function rejects(work: Promise<unknown>, predicate: (error: unknown) => boolean) {
    await assert.rejects(work, (error) => {
      assert.ok(predicate(error), `unexpected error: ${String(error)}`);
      return true;
    });
  }

  it('keeps user emails unique ignoring case', async () => {
    await rejects(
      database().db('users').insert({
        id: randomUUID(),
        email: 'OWNER@example.com',
        email_normalized: 'owner@example.com',
        password_hash: 'x',
        email_verified: false,
        created_at: now,
        updated_at: now,
      }),
      isUniqueViolation,
    );
  });

  it('enforces foreign keys', async () => {
    await rejects(
      database().db('memberships').insert({
        user_id: randomUUID(),
        employer_id: ids.employer,
        role: 'member',
        created_at: now,
      }),
      (error) => /foreign key/i.test(String(error)),
    );
  });

  it('allows one interviewee per event and one invitation per interviewer email', async () => {
    const { db } = database();
    await rejects(
      db('interviewees').insert({
        id: randomUUID(),
        event_id: ids.event,
        name: 'Second',
        email: 'second@example.com',
        status: 'RSVPED',
        created_at: now,
        updated_at: now,
      }),
      isUniqueViolation,
    );
    await rejects(
      db('interviewers').insert({
        id: randomUUID(),
        event_id: ids.event,
        email: 'LEE@example.com',
        email_normalized: 'lee@example.com',
        position: 1,
        created_at: now,
      }),
      isUniqueViolation,
    );
  });

  it('allows at most one open interview record per interviewee', async () => {
    const { db } = database();
    const record = (endAt: number | null) => ({
      id: randomUUID(),
      event_id: ids.event,
      interviewee_id: ids.interviewee,
      start_at: now,
      end_at: endAt,
      created_at: now,
    });
    await db('interview_records').insert(record(now + 1000));
    await db('interview_records').insert(record(null));
    await rejects(db('interview_records').insert(record(null)), isUniqueViolation);
    await db('interview_records').insert(record(now + 2000));
  });

  it('rejects values outside the status enumerations', async () => {
    await rejects(
      database().db('interview_events').where({ id: ids.event }).update({ status: 'LOST' }),
      (error) => /check|constraint/i.test(String(error)),
    );
  });

  it('cascades an event deletion to its participants, records and tokens', async () => {
    const { db } = database();
    await db('lobby_tokens').insert({
      id: randomUUID(),
      event_id: ids.event,
      role: 'interviewer',
      token_hash: 'b'.repeat(64),
      token_encrypted: 'ciphertext',
      created_at: now,
    });
    await db('interview_events').where({ id: ids.event }).delete();
    for (const table of ['interviewers', 'interviewees', 'interview_records', 'lobby_tokens']) {
      const [row] = await db(table).where({ event_id: ids.event }).count({ count: '*' });
      assert.equal(Number(row?.count), 0, `${table} rows left behind`);
    }
  });
});
