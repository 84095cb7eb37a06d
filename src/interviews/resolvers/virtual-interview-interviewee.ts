import type {
  VirtualInterviewIntervieweeResolvers,
  VirtualInterviewJob,
} from '../../../generated/graphql.js';
import type { EventRow, IntervieweeRow } from '../../db/rows.js';
import type { InterviewContext } from '../context.js';
import { nestedPage } from '../nested-page.js';
import { atOffset } from './offset-date-time.js';

export const VirtualInterviewInterviewee: VirtualInterviewIntervieweeResolvers<InterviewContext> = {
  id: (interviewee) => interviewee.id,
  name: (interviewee) => interviewee.name,
  email: (interviewee) => interviewee.email,
  status: async (interviewee, _args, context) =>
    context.settle.interviewee(interviewee, await eventOf(interviewee, context)),
  job: (interviewee) => jobOf(interviewee),
  intervieweeLobbyUrl: async (interviewee, _args, { loaders }) => {
    const links = await loaders.lobbyLinks.load(interviewee.event_id);
    const url = links.intervieweeLobbyUrls.get(interviewee.id);
    if (!url) throw new Error(`interviewee ${interviewee.id} has no lobby token`);
    return url;
  },
  interviewRecordsConnection: async (interviewee, args, { loaders }) => {
    const list = await loaders.recordsOfInterviewee.load(interviewee.id);
    const page = nestedPage(list, args, 'interviewRecordsConnection');
    return { edges: page.edges, pageInfo: page.pageInfo, records: page.nodes };
  },
  scheduledTime: async (interviewee, _args, context) => {
    const event = await eventOf(interviewee, context);
    return {
      startTime: atOffset(event.start_at, event.start_offset_minutes),
      endTime: atOffset(event.end_at, event.end_offset_minutes),
    };
  },
};

function jobOf(interviewee: IntervieweeRow): VirtualInterviewJob | null {
  if (interviewee.job_employer_job_id) {
    return { __typename: 'EmployerJob', id: interviewee.job_employer_job_id };
  }
  if (interviewee.job_title !== null || interviewee.job_location !== null) {
    return {
      __typename: 'VirtualInterviewJobInfo',
      title: interviewee.job_title,
      location: interviewee.job_location,
    };
  }
  return null;
}

export async function eventOf(
  child: { event_id: string },
  { loaders }: InterviewContext,
): Promise<EventRow> {
  const event = await loaders.event.load(child.event_id);
  if (!event) throw new Error(`event ${child.event_id} is missing`);
  return event;
}
