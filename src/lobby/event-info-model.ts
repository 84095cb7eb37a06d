import type { IntervieweeJob, LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import { CALENDAR_FILE_NAME } from './calendar-event.js';
import { countdownModel } from './countdown.js';

/**
 * Who and what an interview is with, how long until it starts, and where its calendar file is,
 * as the landing page and the interviewee lobby show it (views/lobby-event-info.njk). Both are
 * seen by the interviewee, so interviewers appear by name only, never by email.
 */
export function eventInfoModel(view: LobbyView, pagePath: string) {
  return {
    event_info: {
      countdown: countdownModel(view),
      employer: view.event.employerName,
      job: jobText(view.interviewee?.job ?? null),
      interviewers: interviewersModel(view.interviewers),
      calendar_path: `${pagePath}/${CALENDAR_FILE_NAME}`,
    },
  };
}

/** "Backend engineer (Remote)", the title or the location alone, or "Job ID J-42". */
function jobText(job: IntervieweeJob | null): string | null {
  if (!job) return null;
  if (job.title !== null && job.location !== null) return `${job.title} (${job.location})`;
  const described = job.title ?? job.location;
  if (described !== null) return described;
  return job.employerJobId === null ? null : `Job ID ${job.employerJobId}`;
}

/** "Lee, Sam Park, and 1 other interviewer", or "2 interviewers" when no name is known. */
function interviewersModel(interviewers: LobbyView['interviewers']) {
  if (!interviewers.length) return null;
  const names = interviewers.flatMap(({ name }) => (name?.trim() ? [name.trim()] : []));
  const unnamed = interviewers.length - names.length;
  const others = names.length ? `${unnamed} other ${noun(unnamed)}` : `${unnamed} ${noun(unnamed)}`;
  const phrases = unnamed ? [...names, others] : names;
  return {
    label: interviewers.length === 1 ? 'Interviewer' : 'Interviewers',
    names: new Intl.ListFormat('en-US', { type: 'conjunction' }).format(phrases),
  };
}

function noun(amount: number): string {
  return amount === 1 ? 'interviewer' : 'interviewers';
}
