import type { IndeedDispositionStatus, PartnerDispositionInput } from '../../generated/graphql.js';
import { parseOffsetDateTime, type OffsetDateTime } from '../graphql/api.js';
import type { DispositionIdentifier } from './disposition.js';
import { readIdentifier, type ApplicationKey } from './identifier-rules.js';
import { DispositionRefused } from './refusal.js';
import { checkedDetails, checkedLabel, nameOf } from './text-rules.js';
import { CLOCK_SKEW_MS, MAX_DISPOSITIONS_PER_REQUEST, MESSAGES, RATIONALES } from './vocabulary.js';

/** A disposition that passed every rule: what gets stored. */
export interface AcceptedDisposition {
  identifiedBy: DispositionIdentifier;
  application: ApplicationKey;
  dispositionStatus: IndeedDispositionStatus;
  rawDispositionStatus: string;
  rawDispositionDetails: string | null;
  atsName: string;
  statusChangeDateTime: OffsetDateTime;
  applicationSourceName: string | null;
}

/** Each disposition of a request, in input order: accepted, or failed with its rationale. */
export type Checked =
  | { accepted: AcceptedDisposition }
  | { failed: { identifiedBy: DispositionIdentifier; rationale: string } };

/**
 * The rules of `send`, in two kinds (docs/jobs-apis.md). A broken rule of the request (more than
 * 25, an identifier naming none or several applications, an unreadable instant, text too long or
 * with control characters, a list not sorted oldest first) throws DispositionRefused: nothing is
 * stored. A disposition that is readable but cannot be right (an instant in the future, an
 * employerJobId that is no job IRI, a blank ATS name or status) fails alone, with a rationale.
 */
export function checkRequest(
  dispositions: readonly PartnerDispositionInput[],
  now: number,
): Checked[] {
  if (dispositions.length > MAX_DISPOSITIONS_PER_REQUEST) {
    throw new DispositionRefused(
      `dispositions holds ${dispositions.length} dispositions; at most ` +
        `${MAX_DISPOSITIONS_PER_REQUEST} are accepted per request`,
      ['dispositions'],
    );
  }
  const read = dispositions.map((disposition, index) =>
    readDisposition(disposition, ['dispositions', index]),
  );
  checkSorted(read);
  return read.map((disposition) => judge(disposition, now));
}

function readDisposition(
  input: PartnerDispositionInput,
  path: ReadonlyArray<string | number>,
): AcceptedDisposition {
  const identifier = readIdentifier(input.identifiedBy, [...path, 'identifiedBy']);
  const at = [...path, 'statusChangeDateTime'];
  const details = input.rawDispositionDetails ?? null;
  const source = input.applicationSourceName ?? null;
  return {
    identifiedBy: identifier.echo,
    application: identifier.key,
    dispositionStatus: input.dispositionStatus,
    rawDispositionStatus: checkedLabel(input.rawDispositionStatus, [
      ...path,
      'rawDispositionStatus',
    ]),
    rawDispositionDetails:
      details === null ? null : checkedDetails(details, [...path, 'rawDispositionDetails']),
    atsName: checkedLabel(input.atsName, [...path, 'atsName']),
    statusChangeDateTime: parsedInstant(input.statusChangeDateTime, at),
    applicationSourceName:
      source === null || source.trim() === ''
        ? null
        : checkedLabel(source, [...path, 'applicationSourceName']),
  };
}

function parsedInstant(text: string, path: ReadonlyArray<string | number>): OffsetDateTime {
  try {
    return parseOffsetDateTime(text.trim());
  } catch {
    throw new DispositionRefused(MESSAGES.statusChangeDateTime, path);
  }
}

/** Oldest first, as the platform asks; equal instants may come in any order. */
function checkSorted(read: readonly AcceptedDisposition[]): void {
  for (let index = 1; index < read.length; index++) {
    if (read[index]!.statusChangeDateTime.epochMs < read[index - 1]!.statusChangeDateTime.epochMs) {
      const later = nameOf(['dispositions', index]);
      const earlier = nameOf(['dispositions', index - 1]);
      throw new DispositionRefused(
        `dispositions must be sorted by statusChangeDateTime, oldest first: ${later} is older ` +
          `than ${earlier}`,
        ['dispositions', index, 'statusChangeDateTime'],
      );
    }
  }
}

function judge(disposition: AcceptedDisposition, now: number): Checked {
  const rationale = rationaleFor(disposition, now);
  return rationale === null
    ? { accepted: disposition }
    : { failed: { identifiedBy: disposition.identifiedBy, rationale } };
}

function rationaleFor(disposition: AcceptedDisposition, now: number): string | null {
  if (disposition.statusChangeDateTime.epochMs > now + CLOCK_SKEW_MS) return RATIONALES.future;
  const { application } = disposition;
  if ('job' in application && 'employerJobId' in application.job) {
    if (!isEmployerJobIri(application.job.employerJobId)) return RATIONALES.employerJobId;
  }
  if (disposition.atsName.trim() === '') return RATIONALES.emptyAtsName;
  if (disposition.rawDispositionStatus.trim() === '') return RATIONALES.emptyRawStatus;
  return null;
}

const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const JOB_IRI = /^iri:\/\/apis\.indeed\.com\/[A-Za-z][A-Za-z0-9]*\/[!-~]+$/;

/**
 * Whether `id` is the base64 encoding (standard or URL-safe) of an employer job IRI,
 * `iri://apis.indeed.com/{entityType}/{internalId}`, the form Job Sync's `employerJobId` has.
 */
export function isEmployerJobIri(id: string): boolean {
  if (!BASE64.test(id) && !BASE64URL.test(id)) return false;
  const decoded = Buffer.from(id, BASE64.test(id) ? 'base64' : 'base64url').toString('utf8');
  return JOB_IRI.test(decoded);
}
