import type {
  VirtualInterviewDecision as Decision,
  VirtualInterviewDecisionResolvers,
  VirtualInterviewOutcomeResolvers,
} from '../../../generated/graphql.js';
import type { InterviewContext } from '../context.js';
import { passThrough } from './fields.js';

export const VirtualInterviewOutcome: VirtualInterviewOutcomeResolvers<InterviewContext> = {
  interviewer: async (outcome, _args, { loaders }) => {
    const interviewer = await loaders.interviewer.load(outcome.interviewer_id);
    if (!interviewer) throw new Error(`interviewer ${outcome.interviewer_id} is missing`);
    return interviewer;
  },
  // Null until the interviewer saves a decision (the lobby always saves a value with a note).
  decision: (outcome) =>
    outcome.decision === null && outcome.note_text === null
      ? null
      : { value: outcome.decision, noteText: outcome.note_text },
};

export const VirtualInterviewDecision: VirtualInterviewDecisionResolvers = passThrough<Decision>()(
  'value',
  'noteText',
);
