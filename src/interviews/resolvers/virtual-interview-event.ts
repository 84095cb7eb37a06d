import type { VirtualInterviewEventResolvers } from '../../../generated/graphql.js';
import type { InterviewContext } from '../context.js';
import { nestedPage } from '../nested-page.js';
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
  interviewersConnection: async (event, args, { loaders }) => {
    const list = await loaders.interviewersOfEvent.load(event.id);
    const page = nestedPage(list, args, 'interviewersConnection');
    return { ...page, interviewers: page.nodes };
  },
  intervieweesConnection: async (event, args, { loaders }) => {
    const list = await loaders.intervieweesOfEvent.load(event.id);
    const page = nestedPage(list, args, 'intervieweesConnection');
    return { ...page, interviewees: page.nodes };
  },
};
