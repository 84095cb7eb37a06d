import type { DispositionStatus } from './vocabulary.js';

// The schema's types map onto these (codegen.ts), so this module imports nothing generated.

/** An instant and the UTC offset it was written in: the DateTime scalar's value. */
export interface Instant {
  epochMs: number;
  offsetMinutes: number;
}

/** A job in the applicant tracking system, as sent. */
export interface AtsApplication {
  companyName: string;
  requisitionId: string;
  applicationId: string | null;
}

/**
 * Which application a disposition is about, as the partner sent it (blank values left out as
 * null): what `failedDispositions` and `partnerDispositions` echo.
 */
export interface DispositionIdentifier {
  indeedApplyID: string | null;
  ittk: string | null;
  universalApplyId: string | null;
  alternateIdentifier: {
    jobIdentifier: {
      indeedJobKey: string | null;
      employerJobId: string | null;
      atsApplicationIdentifier: AtsApplication | null;
    };
    jobSeekerIdentifier: { indeedJobSeekerKey: string | null; emailAddress: string | null };
  } | null;
}

/** Who a disposition belongs to: the app and the employer of the token it came with. */
export interface DispositionOwner {
  appId: string;
  /** Null for the app's own token (no `employer`). */
  employerId: string | null;
}

/** A disposition as stored and read back. */
export interface StoredDisposition {
  id: string;
  /** The employer of the token it came with; null for the app's own token. */
  employerId: string | null;
  identifiedBy: DispositionIdentifier;
  dispositionStatus: DispositionStatus;
  rawDispositionStatus: string;
  rawDispositionDetails: string | null;
  atsName: string;
  statusChangeDateTime: Instant;
  applicationSourceName: string | null;
  receivedAt: Instant;
}

/** A disposition that was not stored, and why. */
export interface FailedDisposition {
  identifiedBy: DispositionIdentifier;
  rationale: string;
}

/** What `send` answers. */
export interface SendOutcome {
  numberGoodDispositions: number;
  failedDispositions: FailedDisposition[];
}

/** A page of dispositions with its cursors (`PartnerDispositionsConnection`). */
export interface DispositionPage {
  edges: Array<{ node: StoredDisposition; cursor: string }>;
  hasNextPage: boolean;
}

/** `partnerDisposition`'s value: a namespace for its operations, holding nothing. */
export type DispositionNamespace = Record<string, never>;
