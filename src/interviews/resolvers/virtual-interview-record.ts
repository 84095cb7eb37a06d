import type { VirtualInterviewRecordResolvers } from '../../../generated/graphql.js';
import type { InterviewContext } from '../context.js';
import { nestedPage } from '../nested-page.js';
import { atOffset } from './offset-date-time.js';
import { whenLoaded } from '../loaders.js';
import { eventOf } from './virtual-interview-interviewee.js';

/** Record times have no offset of their own; they are shown in the event's start offset. */
export const VirtualInterviewRecord: VirtualInterviewRecordResolvers<InterviewContext> = {
  id: (record) => record.id,
  startTime: (record, _args, context) =>
    record.start_at === null
      ? null
      : whenLoaded(eventOf(record, context), (event) =>
          atOffset(record.start_at!, event.start_offset_minutes),
        ),
  endTime: (record, _args, context) =>
    record.end_at === null
      ? null
      : whenLoaded(eventOf(record, context), (event) =>
          atOffset(record.end_at!, event.start_offset_minutes),
        ),
  recordingUrl: (record, _args, { loaders }) => loaders.recordingUrl.load(record.id),
  interviewee: async (record, _args, { loaders }) =>
    (await loaders.interviewee.load(record.interviewee_id)) ?? null,
  interviewOutcomesConnection: async (record, args, { loaders }) => {
    const list = await loaders.outcomesOfRecord.load(record.id);
    const page = nestedPage(list, args, 'interviewOutcomesConnection');
    return { edges: page.edges, pageInfo: page.pageInfo, outcomes: page.nodes };
  },
};
