import type { Knex } from 'knex';
import * as accounts from './0001_accounts.js';
import * as oauth from './0002_oauth.js';
import * as operations from './0003_operations.js';
import * as interviews from './0004_interviews.js';
import * as secretReveals from './0005_secret_reveals.js';
import * as appDetails from './0006_app_details.js';
import * as clientSecretSealed from './0007_client_secret_sealed.js';
import * as rateLimitWindows from './0008_rate_limit_windows.js';
import * as signingKeyActivation from './0009_signing_key_activation.js';
import * as interviewEventCounts from './0010_interview_event_counts.js';
import * as changeEpochs from './0011_change_epochs.js';
import * as recordings from './0012_recordings.js';
import * as roomConnections from './0013_room_connections.js';
import * as emailVerification from './0014_email_verification.js';
import * as appPublisher from './0015_app_publisher.js';
import * as recordingChunks from './0017_recording_chunks.js';
import * as deploymentSettings from './0018_deployment_settings.js';
import * as partialTokenIndexes from './0019_partial_token_indexes.js';
import * as webhooks from './0020_webhooks.js';
import * as appApiAccess from './0021_app_api_access.js';
import * as costBudgets from './0022_cost_budgets.js';
import * as persistedDocuments from './0023_persisted_documents.js';
import * as calendarMails from './0024_calendar_mails.js';
import * as recordingFinalisation from './0026_recording_finalisation.js';
import * as decisionNoteNewlines from './0027_decision_note_newlines.js';
import * as jobPostings from './0028_job_postings.js';
import * as partnerEmployers from './0029_partner_employers.js';
import * as partnerDispositions from './0030_partner_dispositions.js';
import * as jobSearch from './0031_job_search.js';
import * as dispositionRetention from './0033_disposition_retention.js';
import * as jobSearchPlaceTerms from './0034_job_search_place_terms.js';
import * as jobSearchTitleCellTerms from './0035_job_search_title_cell_terms.js';
import * as jobSearchJoinedTitleTerms from './0036_job_search_joined_title_terms.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Migrations are imported statically rather than discovered on disk, so the same list runs
 * under tsx in development and from the compiled build, whatever the file extensions.
 * Append new migrations at the end; never rename or reorder existing ones.
 */
const MIGRATIONS: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['0001_accounts', accounts],
  ['0002_oauth', oauth],
  ['0003_operations', operations],
  ['0004_interviews', interviews],
  ['0005_secret_reveals', secretReveals],
  ['0006_app_details', appDetails],
  ['0007_client_secret_sealed', clientSecretSealed],
  ['0008_rate_limit_windows', rateLimitWindows],
  ['0009_signing_key_activation', signingKeyActivation],
  ['0010_interview_event_counts', interviewEventCounts],
  ['0011_change_epochs', changeEpochs],
  ['0012_recordings', recordings],
  ['0013_room_connections', roomConnections],
  ['0014_email_verification', emailVerification],
  ['0015_app_publisher', appPublisher],
  ['0017_recording_chunks', recordingChunks],
  ['0018_deployment_settings', deploymentSettings],
  ['0019_partial_token_indexes', partialTokenIndexes],
  ['0020_webhooks', webhooks],
  ['0021_app_api_access', appApiAccess],
  ['0022_cost_budgets', costBudgets],
  ['0023_persisted_documents', persistedDocuments],
  ['0024_calendar_mails', calendarMails],
  ['0026_recording_finalisation', recordingFinalisation],
  ['0027_decision_note_newlines', decisionNoteNewlines],
  ['0028_job_postings', jobPostings],
  ['0029_partner_employers', partnerEmployers],
  ['0030_partner_dispositions', partnerDispositions],
  ['0031_job_search', jobSearch],
  ['0033_disposition_retention', dispositionRetention],
  ['0034_job_search_place_terms', jobSearchPlaceTerms],
  ['0035_job_search_title_cell_terms', jobSearchTitleCellTerms],
  ['0036_job_search_joined_title_terms', jobSearchJoinedTitleTerms],
];

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => MIGRATIONS.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = MIGRATIONS.find(([candidate]) => candidate === name);
    if (!found) throw new Error(`Unknown migration ${name}`);
    return found[1];
  },
};
