import type { Response } from 'express';
import type { LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import { CSRF_FIELD } from '../sessions/csrf.js';
import {
  eventSummary,
  interviewerModel,
  mayEnterRoom,
  intervieweeModel,
  landingModel,
  type DecisionDraft,
  type Interviewer,
} from './page-models.js';
import { INTERVIEWER_NAME_MAX } from '../interviews/rules/interviewers.js';
import { pageTemplates } from '../http/views.js';
import { eventInfoModel } from './event-info-model.js';
import type { EventRecording } from '../recordings/recording-links.js';
import { recordingListModel } from './recording-list.js';

/** What every page with a form needs, and the problem to show above it, if any. */
export interface FormPage {
  view: LobbyView;
  csrfToken: string;
  /** The page's own path; its forms post to paths under it. */
  path: string;
  status?: number;
  error?: string | null;
}

/**
 * The HTML of the interview pages. Templates autoescape and refuse to print an undefined value,
 * and none of them carries a script or a style attribute, so the site's CSP holds as is.
 */
export class LobbyPages {
  landing(res: Response, view: LobbyView, path: string): void {
    this.render(res, 200, 'landing.njk', { ...landingModel(view), ...eventInfoModel(view, path) });
  }

  intervieweeLobby(res: Response, page: FormPage): void {
    this.render(res, page.status ?? 200, 'lobby-interviewee.njk', {
      ...this.form(page),
      ...intervieweeModel(page.view),
      ...eventInfoModel(page.view, page.path),
      check_in_action: `${page.path}/check-in`,
      live_path: `${page.path}/live`,
      room_path: mayEnterRoom(page.view, 'interviewee') ? `${page.path}/room` : null,
    });
  }

  /** The interviewer lobby before the browser is known: who are you? */
  interviewerIdentify(res: Response, page: FormPage & { email?: string; name?: string }): void {
    this.render(res, page.status ?? 200, 'lobby-interviewer-identify.njk', {
      ...this.form(page),
      ...eventSummary(page.view),
      email: page.email ?? '',
      name: page.name ?? '',
      name_max: INTERVIEWER_NAME_MAX,
      identify_action: `${page.path}/identify`,
    });
  }

  /** `saved`: the record whose decision was just saved, confirmed on the page. */
  interviewerLobby(
    res: Response,
    page: FormPage & {
      me: Interviewer;
      draft?: DecisionDraft;
      saved?: string;
      recordings?: EventRecording[];
    },
  ): void {
    this.render(res, page.status ?? 200, 'lobby-interviewer.njk', {
      ...this.form(page),
      ...interviewerModel(page.view, page.me, page.draft, page.saved),
      recordings: recordingListModel(page.view, page.recordings ?? []),
      live_path: `${page.path}/live`,
      room_path: mayEnterRoom(page.view, 'interviewer') ? `${page.path}/room` : null,
      actions: {
        admit: `${page.path}/admit`,
        send_back: `${page.path}/send-back`,
        end_interview: `${page.path}/end-interview`,
        end_event: `${page.path}/end-event`,
        decision: `${page.path}/decision`,
        forget: `${page.path}/forget`,
      },
    });
  }

  room(res: Response, model: Record<string, unknown>): void {
    this.render(res, 200, 'room.njk', model);
  }

  /** Asks before an action that cannot be undone; confirming posts the form again. */
  confirm(
    res: Response,
    page: FormPage & { question: string; consequence: string; action: string; button: string },
  ): void {
    this.render(res, 200, 'lobby-confirm.njk', {
      ...this.form(page),
      ...eventSummary(page.view),
      question: page.question,
      consequence: page.consequence,
      confirm_action: page.action,
      confirm_button: page.button,
    });
  }

  /** One body for every unknown, altered or misplaced link: it says nothing about why. */
  notFound(res: Response): void {
    this.render(res, 404, 'lobby-not-found.njk', {});
  }

  /** The not-found page's HTML, for answers that are not Express responses (live connections). */
  notFoundHtml(): string {
    return pageTemplates.render('lobby-not-found.njk', {});
  }

  message(res: Response, status: number, page: { title: string; message: string }): void {
    this.render(res, status, 'lobby-message.njk', page);
  }

  private form(page: FormPage) {
    return {
      page_path: page.path,
      csrf_field: CSRF_FIELD,
      csrf_token: page.csrfToken,
      error: page.error ?? null,
    };
  }

  private render(
    res: Response,
    status: number,
    template: string,
    context: Record<string, unknown>,
  ): void {
    const html = pageTemplates.render(template, context);
    res.status(status).type('html').send(html);
  }
}
