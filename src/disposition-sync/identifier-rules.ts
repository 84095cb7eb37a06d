import type {
  AlternateJobIdentifierInput,
  PartnerDispositionIdentifierInput,
} from '../../generated/graphql.js';
import type { AtsApplication, DispositionIdentifier } from './disposition.js';
import { DispositionRefused } from './refusal.js';
import { MESSAGES } from './vocabulary.js';
import { checkedLabel } from './text-rules.js';

type Path = ReadonlyArray<string | number>;

/**
 * The application an identifier names, for telling two dispositions of one application apart
 * from two of different ones: the one identifier that counts, by the platform's precedence.
 */
export type ApplicationKey =
  | { indeedApplyID: string }
  | { ittk: string }
  | { universalApplyId: string }
  | { job: JobKey; jobSeeker: { indeedJobSeekerKey: string } | { emailAddress: string } };

export type JobKey =
  | { indeedJobKey: string }
  | { employerJobId: string }
  | { atsApplicationIdentifier: AtsApplication };

/** An identifier read: as sent (blanks as null) and the key of the application it names. */
export interface ReadIdentifier {
  echo: DispositionIdentifier;
  key: ApplicationKey;
}

/**
 * Reads `identifiedBy`: exactly one of its four fields, and inside an alternate identifier one
 * job identifier (jobKey, then employerJobId, then the ATS identifier: the first given counts)
 * and one job seeker identifier (the seeker key, else the address). A blank string counts as not
 * given. Anything else refuses the request with the platform's message.
 */
export function readIdentifier(
  input: PartnerDispositionIdentifierInput,
  path: Path,
): ReadIdentifier {
  const indeedApplyID = given(input.indeedApplyID, [...path, 'indeedApplyID']);
  const ittk = given(input.ittk, [...path, 'ittk']);
  const universalApplyId = given(input.universalApplyId, [...path, 'universalApplyId']);
  const alternate = input.alternateIdentifier ?? null;
  const count = [indeedApplyID, ittk, universalApplyId, alternate].filter((v) => v !== null);
  if (count.length !== 1) throw new DispositionRefused(MESSAGES.identifier, path);

  if (alternate) {
    const read = readAlternate(alternate, [...path, 'alternateIdentifier']);
    return {
      echo: { indeedApplyID, ittk, universalApplyId, alternateIdentifier: read.echo },
      key: read.key,
    };
  }
  const echo = { indeedApplyID, ittk, universalApplyId, alternateIdentifier: null };
  if (indeedApplyID !== null) return { echo, key: { indeedApplyID } };
  if (ittk !== null) return { echo, key: { ittk } };
  return { echo, key: { universalApplyId: universalApplyId! } };
}

function readAlternate(input: AlternateJobIdentifierInput, path: Path) {
  const jobPath = [...path, 'jobIdentifier'];
  const job = input.jobIdentifier;
  const indeedJobKey = given(job.indeedJobKey, [...jobPath, 'indeedJobKey']);
  const employerJobId = given(job.employerJobId, [...jobPath, 'employerJobId']);
  const ats = readAts(job.atsApplicationIdentifier, [...jobPath, 'atsApplicationIdentifier']);
  const jobKey: JobKey | null =
    indeedJobKey !== null
      ? { indeedJobKey }
      : employerJobId !== null
        ? { employerJobId }
        : ats !== null
          ? { atsApplicationIdentifier: ats }
          : null;
  if (!jobKey) throw new DispositionRefused(MESSAGES.job, jobPath);

  const seekerPath = [...path, 'jobSeekerIdentifier'];
  const seeker = input.jobSeekerIdentifier;
  const indeedJobSeekerKey = given(seeker.indeedJobSeekerKey, [
    ...seekerPath,
    'indeedJobSeekerKey',
  ]);
  const emailAddress = seeker.emailAddress ?? null;
  const seekerKey =
    indeedJobSeekerKey !== null
      ? { indeedJobSeekerKey }
      : emailAddress !== null
        ? { emailAddress: emailAddress.toLowerCase() }
        : null;
  if (!seekerKey) throw new DispositionRefused(MESSAGES.jobSeeker, seekerPath);

  return {
    echo: {
      jobIdentifier: { indeedJobKey, employerJobId, atsApplicationIdentifier: ats },
      jobSeekerIdentifier: { indeedJobSeekerKey, emailAddress },
    },
    key: { job: jobKey, jobSeeker: seekerKey },
  };
}

/** The ATS identifier, or null when it is absent or its required parts are blank. */
function readAts(
  input: AlternateJobIdentifierInput['jobIdentifier']['atsApplicationIdentifier'],
  path: Path,
): AtsApplication | null {
  if (!input) return null;
  const companyName = given(input.companyName, [...path, 'companyName']);
  const requisitionId = given(input.requisitionId, [...path, 'requisitionId']);
  if (companyName === null || requisitionId === null) return null;
  return {
    companyName,
    requisitionId,
    applicationId: given(input.applicationId, [...path, 'applicationId']),
  };
}

/** A value that counts as given: not null, not blank; checked as a label. */
function given(value: string | null | undefined, path: Path): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  return checkedLabel(value, path);
}
