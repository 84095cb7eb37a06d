import type { VirtualInterviewInterviewerResolvers } from '../../../generated/graphql.js';

export const VirtualInterviewInterviewer: VirtualInterviewInterviewerResolvers = {
  id: (interviewer) => interviewer.id,
  email: (interviewer) => interviewer.email,
  name: (interviewer) => interviewer.name,
};
