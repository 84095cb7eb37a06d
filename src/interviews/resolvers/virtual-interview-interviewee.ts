import type {
  ResolversUnionTypes,
  VirtualInterviewIntervieweeResolvers,
} from '../../../generated/graphql.js';
import type { EventRow, IntervieweeRow } from '../../db/rows.js';
import type { InterviewContext } from '../context.js';
import { loaded, whenLoaded } from '../loaders.js';
import { nestedPage } from '../nested-page.js';
import { atOffset } from './offset-date-time.js';

export const VirtualInterviewInterviewee: VirtualInterviewIntervieweeResolvers<InterviewContext> = {
  id: (interviewee) => interviewee.id,
  name: (interviewee) => interviewee.name,
  email: (interviewee) => interviewee.email,
  status: (interviewee, _args, context) =>
    whenLoaded(eventOf(interviewee, context), (event) =>
      context.settle.interviewee(interviewee, event),
    ),
  job: (interviewee) => jobOf(interviewee),
  intervieweeLobbyUrl: (interviewee, _args, { loaders }) =>
    whenLoaded(loaded(loaders.lobbyLinks, interviewee.event_id), (links) => {
      const url = links.intervieweeLobbyUrls.get(interviewee.id);
      if (!url) throw new Error(`interviewee ${interviewee.id} has no lobby token`);
      return url;
    }),
  interviewRecordsConnection: async (interviewee, args, { loaders }) => {
    const list = await loaders.recordsOfInterviewee.load(interviewee.id);
    const page = nestedPage(list, args, 'interviewRecordsConnection');
    return { edges: page.edges, pageInfo: page.pageInfo, records: page.nodes };
  },
  scheduledTime: (interviewee, _args, context) =>
    whenLoaded(eventOf(interviewee, context), (event) => ({
      startTime: atOffset(event.start_at, event.start_offset_minutes),
      endTime: atOffset(event.end_at, event.end_offset_minutes),
    })),
};

/** A job of the employer is only its id here: Job Sync resolves the rest (src/job-sync). */
function jobOf(
  interviewee: IntervieweeRow,
): ResolversUnionTypes<Record<string, unknown>>['VirtualInterviewJob'] | null {
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

/** The event a row belongs to: at once when the request already read it (see `loaded`). */
export function eventOf(
  child: { event_id: string },
  { loaders }: InterviewContext,
): EventRow | Promise<EventRow> {
  return whenLoaded(loaded(loaders.event, child.event_id), (event) => {
    if (!event) throw new Error(`event ${child.event_id} is missing`);
    return event;
  });
}
