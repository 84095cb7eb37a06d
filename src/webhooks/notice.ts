import type { EpochMs } from '../db/rows.js';
import type { InterviewEventType, JobPostingEventType, TEST_EVENT_TYPE } from './event-types.js';

/**
 * A committed change partners may hear about, as the capability that made it describes it. It is
 * handed to the outbox inside the change's transaction; `data` is thin (ids, the employer id, the
 * new status, what changed) and never carries a lobby token, a secret or personal details beyond
 * ids: receivers read the rest through the API.
 */
export interface WebhookNotice {
  /** The app whose endpoints hear of it: for an interview, the app that created the event. */
  appId: string;
  /** The employer it concerns; endpoints filtered to other employers do not hear of it. */
  employerId: string | null;
  type: InterviewEventType | JobPostingEventType | typeof TEST_EVENT_TYPE;
  /**
   * The resource id the change is about: for the Interview API, the event's id; for Job Sync,
   * the posting's `employerJobId`.
   */
  subject: string;
  /** When the change happened: the instant of its transaction. */
  time: EpochMs;
  data: Record<string, unknown>;
}
