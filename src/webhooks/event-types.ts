/**
 * Every type of webhook event (DESIGN §8), each with its version suffix. The Interview API's
 * types are about one virtual interview event: their subject is the event's id.
 */
export const INTERVIEW_EVENT_TYPES = [
  'interview.event.created.v1',
  'interview.event.updated.v1',
  'interview.event.cancelled.v1',
  'interview.event.started.v1',
  'interview.event.ended.v1',
  'interview.interviewee.checked_in.v1',
  'interview.interviewee.admitted.v1',
  'interview.interviewee.requeued.v1',
  'interview.interviewee.interviewed.v1',
  'interview.interviewee.not_interviewed.v1',
  'interview.record.started.v1',
  'interview.record.ended.v1',
  'interview.decision.recorded.v1',
  'interview.recording.available.v1',
] as const;

/**
 * Job Sync's types (docs/jobs-apis.md, "Webhooks"): each is about one posting, whose
 * `employerJobId` is the subject.
 */
export const JOB_POSTING_EVENT_TYPES = [
  'job.posting.created.v1',
  'job.posting.updated.v1',
  'job.posting.expired.v1',
  'job.posting.reactivated.v1',
] as const;

/** Every type an endpoint may filter on (the console's choices, the CLI's and the API's). */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = [
  ...INTERVIEW_EVENT_TYPES,
  ...JOB_POSTING_EVENT_TYPES,
];

/** Sent only by "send a test event", to one endpoint, whatever its filter. */
export const TEST_EVENT_TYPE = 'webhook.test.v1';

export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...SUBSCRIBABLE_EVENT_TYPES,
  TEST_EVENT_TYPE,
];

export type InterviewEventType = (typeof INTERVIEW_EVENT_TYPES)[number];
export type JobPostingEventType = (typeof JOB_POSTING_EVENT_TYPES)[number];

/** What `interview.event.updated.v1` says changed (`data.change`). */
export type InterviewEventChange =
  'rescheduled' | 'title' | 'timezone' | 'interviewers_added' | 'interviewee_added';

export function isWebhookEventType(type: string): boolean {
  return WEBHOOK_EVENT_TYPES.includes(type);
}
