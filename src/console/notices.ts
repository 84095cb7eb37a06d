import type { RequestHandler, Response } from 'express';
import { clearCookie, readCookie, writeCookie } from '../sessions/cookies.js';

/** Which change just succeeded; the cookie carries only this key, never any text. */
export const NOTICES = {
  'sign-up-mailed':
    'Check your email: we sent a message to the address you entered. To use the console, sign in.',
  'app-registered': 'App registered.',
  'app-updated': 'Changes saved.',
  'app-deleted': 'App deleted. Its client ID, secret and tokens no longer work.',
  'secret-rotated':
    'Secret rotated. The previous secret no longer works: put the new one in your app now.',
  'secret-revealed': "Secret revealed. The reveal is recorded in the app's activity.",
  'api-enabled': 'API enabled. The app can call it from its next request on.',
  'api-disabled': "API disabled. The app's calls to it are refused.",
  'redirect-url-added': 'Redirect URL added.',
  'redirect-url-changed': 'Redirect URL saved.',
  'redirect-url-removed': 'Redirect URL removed.',
  'employer-created': 'Employer created. You are its admin.',
  'member-added': 'Member added.',
  'webhook-created': 'Endpoint added. Copy its signing secret now: it is shown only once.',
  'webhook-updated': 'Endpoint saved.',
  'webhook-rotated':
    'Signing secret rotated. Until the time shown, deliveries are signed with both the new and the previous secret.',
  'webhook-test-sent': 'Test event queued. It appears in the delivery log below.',
  'webhook-enabled': 'Endpoint enabled. New events are delivered to it again.',
  'webhook-disabled': 'Endpoint disabled. Nothing is delivered to it until you enable it.',
  'webhook-deleted': 'Endpoint deleted, with its delivery log.',
  'webhook-resent': 'Delivery queued to be sent again, with the same webhook-id.',
  'webhook-recovered': 'Failed deliveries queued to be sent again.',
  'budget-updated': 'Budget saved. It applies to requests within a second.',
  'calendar-mails-saved':
    "Calendar mail settings saved. They apply to the app's interview changes from now on.",
} as const;

export type Notice = keyof typeof NOTICES;

const NOTICE_COOKIE = 'hpa_console_notice';
/** Long enough for the redirect to be followed; a notice never outlives its next page. */
const NOTICE_MAX_AGE_SECONDS = 60;

/**
 * The one-time success message after a change (POST, redirect, GET): the POST names the change
 * in a short-lived cookie, and the next console page shows its fixed wording and clears it.
 * Nothing the request says is ever shown, only the wording of a known key.
 */
export class ConsoleNotices {
  constructor(private readonly cookie: { secure: boolean }) {}

  /** Answers a successful form with 303 to `location`, which will say that `notice` happened. */
  redirect(res: Response, location: string, notice: Notice): void {
    writeCookie(res, NOTICE_COOKIE, notice, {
      secure: this.cookie.secure,
      maxAgeSeconds: NOTICE_MAX_AGE_SECONDS,
    });
    res.redirect(303, location);
  }

  /** Takes a waiting notice on a page view into `res.locals`, for the layout to show. */
  readonly take: RequestHandler = (req, res, next) => {
    const key = req.method === 'GET' ? readCookie(req, NOTICE_COOKIE) : undefined;
    if (key !== undefined) {
      clearCookie(res, NOTICE_COOKIE, this.cookie);
      const text = noticeText(key);
      if (text) res.locals.consoleNotice = text;
    }
    next();
  };
}

/** The notice the page should show; never on an error page. */
export function pendingNotice(res: Response, status: number): string | null {
  const text: unknown = res.locals.consoleNotice;
  return status < 400 && typeof text === 'string' ? text : null;
}

function noticeText(key: string): string | undefined {
  return Object.hasOwn(NOTICES, key) ? NOTICES[key as Notice] : undefined;
}
