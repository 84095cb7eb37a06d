import type { ApiResolvers } from '../../graphql/api.js';
import type { InterviewContext } from '../context.js';
import * as connections from './connections.js';
import { Mutation } from './mutation.js';
import * as payloads from './payloads.js';
import { Query } from './query.js';
import { VirtualInterviewEvent } from './virtual-interview-event.js';
import { VirtualInterviewInterviewee } from './virtual-interview-interviewee.js';
import { VirtualInterviewInterviewer } from './virtual-interview-interviewer.js';
import { VirtualInterviewJob, VirtualInterviewJobInfo } from './virtual-interview-job.js';
import { VirtualInterviewDecision, VirtualInterviewOutcome } from './virtual-interview-outcome.js';
import { VirtualInterviewRecord } from './virtual-interview-record.js';

/**
 * Every resolver of the Interview API (schema/interview.graphql), one file per schema type. Each
 * type is typed by the generated resolvers, in which every field is mandatory, and src/apis.ts
 * checks that the APIs together resolve the whole schema: a field added to an SDL file fails
 * type-checking until it has a resolver.
 */
export const interviewResolvers = {
  Query,
  Mutation,
  VirtualInterviewEvent,
  VirtualInterviewInterviewee,
  VirtualInterviewInterviewer,
  VirtualInterviewRecord,
  VirtualInterviewOutcome,
  VirtualInterviewDecision,
  VirtualInterviewJob,
  VirtualInterviewJobInfo,
  ...connections,
  ...payloads,
} satisfies ApiResolvers<InterviewContext>;
