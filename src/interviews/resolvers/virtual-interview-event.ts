import type { VirtualInterviewEventResolvers } from '../../../generated/graphql.js';
import type { InterviewContext } from '../context.js';
import { wholeList } from './connection.js';
import { atOffset } from './offset-date-time.js';

export const VirtualInterviewEvent: VirtualInterviewEventResolvers<InterviewContext> = {
  id: (event) => event.id,
  title: (event) => event.title,
  startTime: (event) => atOffset(event.start_at, event.start_offset_minutes),
  endTime: (event) => atOffset(event.end_at, event.end_offset_minutes),
  timezone: (event) => event.timezone,
  languageCode: (event) => event.language_code,
  countryCode: (event) => event.country_code,
  status: (event, _args, { settle }) => settle.event(event),
  mediaType: (event) => event.media_type,
  interviewerLobbyUrl: async (event, _args, { loaders }) => {
    const url = (await loaders.lobbyLinks.load(event.id)).interviewerLobbyUrl;
    if (!url) throw new Error(`event ${event.id} has no interviewer lobby token`);
    return url;
  },
  interviewLandingPageUrl: async (event, _args, { loaders }) =>
    (await loaders.lobbyLinks.load(event.id)).landingPageUrl,
  interviewersConnection: async (event, _args, { loaders }) => {
    const list = wholeList(await loaders.interviewersOfEvent.load(event.id));
    return { ...list, interviewers: list.nodes };
  },
  intervieweesConnection: async (event, _args, { loaders }) => {
    const list = wholeList(await loaders.intervieweesOfEvent.load(event.id));
    return { ...list, interviewees: list.nodes };
  },
};
