import type {
  CreateSourcedJobPostingResultResolvers,
  CreateSourcedJobPostingsPayloadResolvers,
  ExpireSourcedJobBySourcedPostingIdInfoResolvers,
  ExpireSourcedJobBySourcedPostingIdResultResolvers,
  ExpireSourcedJobInputDataResolvers,
  ExpireSourcedJobsBySourcedPostingIdPayloadResolvers,
  SourcedJobPostingResolvers,
} from '../../../../generated/graphql.js';
import { itemError } from './item-errors.js';

export const CreateSourcedJobPostingsPayload: CreateSourcedJobPostingsPayloadResolvers = {
  results: (payload) => payload.results,
};

export const CreateSourcedJobPostingResult: CreateSourcedJobPostingResultResolvers = {
  jobPosting: (outcome) => {
    if (outcome.problem) throw itemError(outcome.problem, ['input', 'jobPostings', outcome.index]);
    return outcome.posting;
  },
};

export const SourcedJobPosting: SourcedJobPostingResolvers = {
  sourcedPostingId: (posting) => posting.sourcedPostingId,
  employerJobId: (posting) => posting.employerJobId,
};

export const ExpireSourcedJobsBySourcedPostingIdPayload: ExpireSourcedJobsBySourcedPostingIdPayloadResolvers =
  { results: (payload) => payload.results };

export const ExpireSourcedJobBySourcedPostingIdResult: ExpireSourcedJobBySourcedPostingIdResultResolvers =
  {
    trackingKey: (outcome) => {
      if (outcome.problem) {
        throw itemError(outcome.problem, ['input', 'jobs', outcome.index, 'sourcedPostingId']);
      }
      return outcome.trackingKey;
    },
    inputData: (outcome) => ({ sourcedPostingId: outcome.requestedId }),
  };

export const ExpireSourcedJobInputData: ExpireSourcedJobInputDataResolvers = {
  __resolveType: () => 'ExpireSourcedJobBySourcedPostingIdInfo',
};

export const ExpireSourcedJobBySourcedPostingIdInfo: ExpireSourcedJobBySourcedPostingIdInfoResolvers =
  { sourcedPostingId: (input) => input.sourcedPostingId };
