/** Dispositions one `send` takes at most (the platform's documented limit). */
export const MAX_DISPOSITIONS_PER_REQUEST = 25;

/** Characters of each identifier, label and name (ids, `atsName`, statuses, sources). */
export const MAX_LABEL_LENGTH = 200;

/** Characters of `rawDispositionDetails`. */
export const MAX_DETAILS_LENGTH = 2000;

/**
 * How far ahead of this service's clock a `statusChangeDateTime` may be and still count as now:
 * the clocks of a partner's machines and ours disagree by a little.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** The platform's messages, word for word (platform-apis.md §5). */
export const MESSAGES = {
  identifier:
    'PartnerDispositionIdentifierInput must specify one of indeedApplyID, ittk, universalApplyId, or alternateIdentifier',
  job: 'JobIdentifierInput must specify one of indeedJobKey, employerJobId, or atsApplicationIdentifier',
  jobSeeker: 'JobSeekerIdentifierInput must specify either indeedJobSeekerKey or emailAddress',
  statusChangeDateTime: 'Unable to parse statusChangeDateTime',
} as const;

/** Why a disposition was not stored: the `rationale` values of this twin (docs/jobs-apis.md). */
export const RATIONALES = {
  future: 'statusChangeDateTime is in the future',
  employerJobId:
    'employerJobId is not a base64-encoded employer job IRI (iri://apis.indeed.com/...)',
  emptyAtsName: 'atsName is empty',
  emptyRawStatus: 'rawDispositionStatus is empty',
} as const;

/** Every status the API accepts, in the order of the platform's list, DROPPED_OTHER last. */
export const DISPOSITION_STATUSES = [
  'NEW',
  'REVIEW',
  'LIKED',
  'CONTACTED',
  'INTERVIEW',
  'BACKGROUND_CHECK',
  'WITHDRAWN',
  'HIRED',
  'INCOMPLETE',
  'UNABLE_TO_MAP',
  'SCREEN',
  'VERIFY_ELIGIBILITY',
  'NOT_SELECTED',
  'OFFER_DECLINED',
  'ASSESS_QUALIFICATIONS',
  'OFFER_MADE',
  'ONBOARDED',
  'POSITIVELY_SCREENED',
  'JOB_INACTIVE',
  'JOB_CLOSED',
  'DROPPED_DUPLICATE',
  'DROPPED_JOB_EXPIRED',
  'DROPPED_FRAUD_SPAM',
  'DROPPED_OTHER',
] as const;

/** One of DISPOSITION_STATUSES (the schema's IndeedDispositionStatus). */
export type DispositionStatus = (typeof DISPOSITION_STATUSES)[number];
