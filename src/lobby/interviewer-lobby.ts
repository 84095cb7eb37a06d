import type { Request, RequestHandler, Response, Router } from 'express';
import { isDecisionValue, type DecisionValue } from '../interviews/vocabulary.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import { isValidEmail } from '../validation/email.js';
import type { LobbyPlace } from './interviewer-identity.js';
import {
  acceptForm,
  attempt,
  backToPage,
  formField,
  openLink,
  type LobbyServices,
  type OpenedLink,
  type Refusal,
} from './lobby-guards.js';
import type { DecisionDraft } from './page-models.js';
import type { EventRecordings } from './recording-list.js';

const ENTER_EMAIL = 'Enter the email address your invitation was sent to.';
const NOT_INVITED =
  'This email is not invited to this interview event. Use the address your invitation was sent to.';
const IDENTIFY_AGAIN = 'Enter your email address again to continue. Nothing was changed.';
const CHOOSE_DECISION = 'Choose Yes, No, Maybe or Skip, then save your decision.';
const NO_SUCH_INTERVIEW =
  'That interview is not part of this event. Reload the page and try again.';

const RECORD_ID = /^[A-Za-z0-9-]{1,64}$/;
/** The query parameter naming the record whose decision was just saved. */
const SAVED = 'saved';

/** The lifecycle steps behind the interviewer lobby's buttons, by the path they are posted to. */
const STEPS = {
  admit: 'admit',
  'send-back': 'sendBack',
  'end-interview': 'endInterview',
  'end-event': 'endEvent',
} as const;

/** Steps that cannot be undone are confirmed on a page of their own first (no script needed). */
const CONFIRMATIONS: Partial<
  Record<string, { question: string; consequence: string; button: string }>
> = {
  'end-interview': {
    question: 'End this interview?',
    consequence:
      'The interviewee leaves the room and is marked as interviewed. They cannot be admitted again.',
    button: 'End interview',
  },
  'end-event': {
    question: 'End the whole event?',
    consequence:
      'Both lobbies and the room close for everyone. An interviewee who was never admitted is ' +
      'marked as not interviewed. This cannot be undone.',
    button: 'End event',
  },
};

/**
 * The interviewer lobby, GET /lobby/interviewer/:token. The browser first says which invited
 * interviewer uses it (POST …/identify with the invited email and, once, the display name shown to
 * the interviewee; remembered in a signed cookie scoped to this lobby), then sees the interviewee
 * and acts: …/admit, …/send-back, …/end-interview, …/end-event and
 * …/decision. Every form is CSRF-checked and answers 303 back to the page; a refused step shows
 * the page again with the reason (409).
 */
export function mountInterviewerLobby(
  router: Router,
  services: LobbyServices,
  form: RequestHandler,
  recordingList?: EventRecordings,
): void {
  const page = `${LOBBY_PATHS.interviewer}/:token`;
  const place = (link: OpenedLink): LobbyPlace => ({
    eventId: link.access.eventId,
    path: link.path,
  });

  /** The page as this browser should see it: the lobby when identified, the email form if not. */
  async function show(
    req: Request,
    res: Response,
    link: OpenedLink,
    problem?: Refusal & { email?: string; name?: string; draft?: DecisionDraft },
  ): Promise<void> {
    const view = await services.lifecycle.view(link.access.eventId);
    const remembered = services.identities.recall(req, place(link));
    const me = view.interviewers.find((interviewer) => interviewer.id === remembered);
    const common = {
      view,
      path: link.path,
      csrfToken: services.csrf.forAnonymous(req, res),
      status: problem?.status,
      error: problem?.message,
    };
    if (me) {
      const saved = problem ? undefined : savedRecordId(req);
      const recordings = (await recordingList?.ofEvent(link.access.eventId)) ?? [];
      services.pages.interviewerLobby(res, {
        ...common,
        me,
        draft: problem?.draft,
        saved,
        recordings,
      });
    } else {
      services.pages.interviewerIdentify(res, {
        ...common,
        email: problem?.email,
        name: problem?.name,
      });
    }
  }

  /** Opens the link of a form post, after its CSRF check; null when the answer is already sent. */
  async function openForm(req: Request, res: Response): Promise<OpenedLink | null> {
    if (!acceptForm(services, req, res)) return null;
    return openLink(services, 'interviewer', req, res);
  }

  /** Runs a step as the remembered interviewer, then redirects back or shows the refusal. */
  async function act(
    req: Request,
    res: Response,
    link: OpenedLink,
    step: (eventId: string, interviewerId: string) => Promise<void>,
    draft?: DecisionDraft,
  ): Promise<void> {
    const interviewerId = services.identities.recall(req, place(link));
    if (!interviewerId) return show(req, res, link, { status: 403, message: IDENTIFY_AGAIN });
    const refusal = await attempt(() => step(link.access.eventId, interviewerId));
    if (refusal) return show(req, res, link, { ...refusal, draft });
    // A saved decision is confirmed on the page it leads back to (?saved=<record id>).
    const query = draft ? `?${SAVED}=${encodeURIComponent(draft.recordId)}` : '';
    res.redirect(303, `${link.path}${query}`);
  }

  router.get(page, async (req, res) => {
    const link = await openLink(services, 'interviewer', req, res);
    if (link) await show(req, res, link);
  });

  router.post(`${page}/identify`, form, async (req, res) => {
    const link = await openForm(req, res);
    if (!link) return;
    const email = formField(req, 'email').trim();
    const name = formField(req, 'name');
    if (!isValidEmail(email))
      return show(req, res, link, { status: 400, message: ENTER_EMAIL, email, name });
    const attemptKey = `${req.ip}|${link.access.eventId}`;
    const blocked = await services.identifyLimiter.isBlocked(attemptKey);
    if (!blocked.allowed) return tooManyAttempts(res, link, email, blocked.retryAfterSeconds);
    const interviewer = await services.lifecycle.findInterviewer(link.access.eventId, email);
    if (!interviewer) {
      const counted = await services.identifyLimiter.consume(attemptKey);
      if (!counted.allowed) return tooManyAttempts(res, link, email, counted.retryAfterSeconds);
      return show(req, res, link, { status: 403, message: NOT_INVITED, email, name });
    }
    // Empty keeps the name given before (or the creator's account name); a new one replaces it.
    if (name.trim()) {
      const refusal = await attempt(() =>
        services.lifecycle.nameInterviewer(link.access.eventId, interviewer.id, name),
      );
      if (refusal) return show(req, res, link, { ...refusal, email, name });
    }
    services.identities.remember(res, place(link), interviewer.id);
    res.redirect(303, link.path);
  });

  /** Too many wrong emails from this address for this event: 429 with Retry-After. */
  function tooManyAttempts(
    res: Response,
    link: OpenedLink,
    email: string,
    retryAfterSeconds: number,
  ) {
    res.set('Retry-After', String(retryAfterSeconds));
    return show(res.req, res, link, {
      status: 429,
      message: `Too many attempts with emails that are not invited. Try again in ${retryAfterSeconds} seconds.`,
      email,
    });
  }

  router.post(`${page}/forget`, form, async (req, res) => {
    const link = await openForm(req, res);
    if (!link) return;
    services.identities.forget(res, place(link));
    res.redirect(303, link.path);
  });

  for (const [action, method] of Object.entries(STEPS)) {
    router.post(`${page}/${action}`, form, async (req, res) => {
      const link = await openForm(req, res);
      if (!link) return;
      const question = CONFIRMATIONS[action];
      const identified = services.identities.recall(req, place(link)) !== null;
      if (question && identified && formField(req, 'confirmed') !== 'yes') {
        return services.pages.confirm(res, {
          ...question,
          view: await services.lifecycle.view(link.access.eventId),
          path: link.path,
          action: `${link.path}/${action}`,
          csrfToken: services.csrf.forAnonymous(req, res),
        });
      }
      await act(req, res, link, (eventId, interviewerId) =>
        services.lifecycle[method](eventId, interviewerId),
      );
    });
  }

  router.post(`${page}/decision`, form, async (req, res) => {
    const link = await openForm(req, res);
    if (!link) return;
    const recordId = formField(req, 'record_id');
    const decision = decisionValue(formField(req, 'decision'));
    const note = formField(req, 'note');
    const draft: DecisionDraft = { recordId, decision, note };
    if (!RECORD_ID.test(recordId)) {
      return show(req, res, link, { status: 400, message: NO_SUCH_INTERVIEW });
    }
    if (!decision) return show(req, res, link, { status: 400, message: CHOOSE_DECISION, draft });
    await act(
      req,
      res,
      link,
      (eventId, interviewerId) =>
        services.lifecycle.recordDecision(
          eventId,
          interviewerId,
          recordId,
          decision,
          note.trim() || null,
        ),
      draft,
    );
  });

  backToPage(router, services, 'interviewer', [
    'identify',
    'forget',
    'decision',
    ...Object.keys(STEPS),
  ]);
}

/** The record whose decision was just saved, named by the page's address; else undefined. */
function savedRecordId(req: Request): string | undefined {
  const value = req.query[SAVED];
  return typeof value === 'string' && RECORD_ID.test(value) ? value : undefined;
}

function decisionValue(value: string): DecisionValue | null {
  return isDecisionValue(value) ? value : null;
}
