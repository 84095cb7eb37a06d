import type { VirtualInterviewEventResolvers } from '../../../generated/graphql.js';
import type { InterviewContext } from '../context.js';
import { loaded, whenLoaded } from '../loaders.js';
import { nestedPage } from '../nested-page.js';
import { atOffset } from './offset-date-time.js';

// Fields read from the request's loaders answer at once, without a promise, when the event's
// read already brought what they show (see `loaded`).
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
  interviewerLobbyUrl: (event, _args, { loaders }) =>
    whenLoaded(loaded(loaders.lobbyLinks, event.id), ({ interviewerLobbyUrl: url }) => {
      if (!url) throw new Error(`event ${event.id} has no interviewer lobby token`);
      return url;
    }),
  interviewLandingPageUrl: (event, _args, { loaders }) =>
    whenLoaded(loaded(loaders.lobbyLinks, event.id), (links) => links.landingPageUrl),
  interviewersConnection: (event, args, { loaders }) =>
    whenLoaded(loaded(loaders.interviewersOfEvent, event.id), (list) => {
      const page = nestedPage(list, args, 'interviewersConnection');
      return { ...page, interviewers: page.nodes };
    }),
  intervieweesConnection: (event, args, { loaders }) =>
    whenLoaded(loaded(loaders.intervieweesOfEvent, event.id), (list) => {
      const page = nestedPage(list, args, 'intervieweesConnection');
      return { ...page, interviewees: page.nodes };
    }),
};
