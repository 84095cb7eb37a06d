import type { SchemaResolvers } from '../../graphql/schema.js';
import type { InterviewContext } from '../context.js';
import * as connections from './connections.js';
import { Mutation } from './mutation.js';
import * as payloads from './payloads.js';
import { Query } from './query.js';
import { VirtualInterviewEvent } from './virtual-interview-event.js';
import { VirtualInterviewInterviewee } from './virtual-interview-interviewee.js';
import { VirtualInterviewInterviewer } from './virtual-interview-interviewer.js';
import {
  EmployerJob,
  VirtualInterviewJob,
  VirtualInterviewJobInfo,
} from './virtual-interview-job.js';
import { VirtualInterviewDecision, VirtualInterviewOutcome } from './virtual-interview-outcome.js';
import { VirtualInterviewRecord } from './virtual-interview-record.js';

/**
 * Every resolver of the Interview API, one file per schema type. Typed by the generated
 * resolver map, in which every field is mandatory: a field added to schema.graphql fails
 * type-checking here until it has a resolver.
 */
export const interviewResolvers: SchemaResolvers<InterviewContext> = {
  Query,
  Mutation,
  VirtualInterviewEvent,
  VirtualInterviewInterviewee,
  VirtualInterviewInterviewer,
  VirtualInterviewRecord,
  VirtualInterviewOutcome,
  VirtualInterviewDecision,
  VirtualInterviewJob,
  EmployerJob,
  VirtualInterviewJobInfo,
  ...connections,
  ...payloads,
};
