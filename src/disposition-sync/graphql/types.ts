import type {
  AlternateJobIdentifierResolvers,
  AtsApplicationIdentifierResolvers,
  FailedPartnerDispositionResolvers,
  JobIdentifierResolvers,
  JobSeekerIdentifierResolvers,
  PartnerDispositionEdgeResolvers,
  PartnerDispositionIdentifierResolvers,
  PartnerDispositionResolvers,
  PartnerDispositionsConnectionResolvers,
  SendPartnerDispositionPayloadResolvers,
} from '../../../generated/graphql.js';

// The service answers whole objects in the schema's shape; these read them back.

export const SendPartnerDispositionPayload: SendPartnerDispositionPayloadResolvers = {
  numberGoodDispositions: (payload) => payload.numberGoodDispositions,
  failedDispositions: (payload) => payload.failedDispositions,
};

export const FailedPartnerDisposition: FailedPartnerDispositionResolvers = {
  identifiedBy: (failed) => failed.identifiedBy,
  rationale: (failed) => failed.rationale,
};

export const PartnerDispositionIdentifier: PartnerDispositionIdentifierResolvers = {
  indeedApplyID: (identifier) => identifier.indeedApplyID ?? null,
  ittk: (identifier) => identifier.ittk ?? null,
  universalApplyId: (identifier) => identifier.universalApplyId ?? null,
  alternateIdentifier: (identifier) => identifier.alternateIdentifier ?? null,
};

export const AlternateJobIdentifier: AlternateJobIdentifierResolvers = {
  jobIdentifier: (alternate) => alternate.jobIdentifier,
  jobSeekerIdentifier: (alternate) => alternate.jobSeekerIdentifier,
};

export const JobIdentifier: JobIdentifierResolvers = {
  indeedJobKey: (job) => job.indeedJobKey ?? null,
  employerJobId: (job) => job.employerJobId ?? null,
  atsApplicationIdentifier: (job) => job.atsApplicationIdentifier ?? null,
};

export const AtsApplicationIdentifier: AtsApplicationIdentifierResolvers = {
  companyName: (ats) => ats.companyName,
  requisitionId: (ats) => ats.requisitionId,
  applicationId: (ats) => ats.applicationId ?? null,
};

export const JobSeekerIdentifier: JobSeekerIdentifierResolvers = {
  indeedJobSeekerKey: (seeker) => seeker.indeedJobSeekerKey ?? null,
  emailAddress: (seeker) => seeker.emailAddress ?? null,
};

export const PartnerDisposition: PartnerDispositionResolvers = {
  id: (disposition) => disposition.id,
  identifiedBy: (disposition) => disposition.identifiedBy,
  dispositionStatus: (disposition) => disposition.dispositionStatus,
  rawDispositionStatus: (disposition) => disposition.rawDispositionStatus,
  rawDispositionDetails: (disposition) => disposition.rawDispositionDetails ?? null,
  atsName: (disposition) => disposition.atsName,
  statusChangeDateTime: (disposition) => disposition.statusChangeDateTime,
  applicationSourceName: (disposition) => disposition.applicationSourceName ?? null,
  receivedAt: (disposition) => disposition.receivedAt,
};

export const PartnerDispositionsConnection: PartnerDispositionsConnectionResolvers = {
  edges: (page) => page.edges,
  pageInfo: (page) => ({
    hasNextPage: page.hasNextPage,
    hasPreviousPage: false,
    startCursor: page.edges[0]?.cursor ?? null,
    endCursor: page.edges.at(-1)?.cursor ?? null,
  }),
};

export const PartnerDispositionEdge: PartnerDispositionEdgeResolvers = {
  node: (edge) => edge.node,
  cursor: (edge) => edge.cursor,
};
