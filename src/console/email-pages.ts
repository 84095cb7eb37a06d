import type { Response } from 'express';
import type { LinkProblem } from '../account-emails/email-links.js';
import type { OutboxEntry } from '../mail/outbox-mailer.js';
import { MIN_PASSWORD_LENGTH } from '../security/passwords.js';
import { renderConsolePage, type ConsolePages, type Viewer } from './pages.js';
import { CONSOLE_PATHS, resetPasswordPath } from './paths.js';

/** What a link that does not work says, and its status: used and expired links are gone. */
const LINK_PROBLEMS: Record<LinkProblem, { status: number; title: string; message: string }> = {
  used: {
    status: 410,
    title: 'This link has already been used',
    message:
      'Each link in our mails works once, and a newer link replaces older ones. ' +
      'If you still need to, ask for a new link.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    message:
      'Verification links work for 24 hours and password-reset links for one hour. ' +
      'Ask for a new link.',
  },
  invalid: {
    status: 404,
    title: 'This link is not valid',
    message: 'Check that you opened the whole link from the mail, or ask for a new link.',
  },
};

/** The console's pages about mailed links: verification, forgotten password, the outbox. */
export class EmailPages {
  constructor(private readonly pages: ConsolePages) {}

  linkProblem(res: Response, viewer: Viewer | null, problem: LinkProblem): void {
    const { status, title, message } = LINK_PROBLEMS[problem];
    this.pages.message(res, status, viewer, { title, message });
  }

  verified(res: Response, viewer: Viewer | null): void {
    this.pages.message(res, 200, viewer, {
      title: 'Your email address is verified',
      message: 'Thank you. Apps you sign in to now see your address as verified.',
    });
  }

  verificationSent(res: Response, viewer: Viewer): void {
    this.pages.message(res, 200, viewer, {
      title: 'We sent you a new link',
      message: `Open the link in the mail we sent to ${viewer.email}. It works for 24 hours.`,
    });
  }

  resendLimited(res: Response, viewer: Viewer, wait: string): void {
    this.pages.message(res, 429, viewer, {
      title: 'Too many links asked for',
      message: `We sent several links already. Try again in ${wait}.`,
    });
  }

  forgotPassword(
    res: Response,
    page: { csrfToken: string; status?: number; email?: string; error?: string },
  ): void {
    renderConsolePage(res, page.status ?? 200, 'console-forgot-password.njk', null, {
      action: CONSOLE_PATHS.forgotPassword,
      sign_in_href: CONSOLE_PATHS.signIn,
      csrf_token: page.csrfToken,
      email: page.email ?? '',
      error: page.error ?? null,
    });
  }

  /** The one answer to every accepted request, whether or not an account has the address. */
  resetLinkSent(res: Response): void {
    this.pages.message(res, 200, null, {
      title: 'Check your email',
      message:
        'If an account exists for that address, we sent a link to choose a new password. ' +
        'It works for one hour.',
    });
  }

  resetPassword(
    res: Response,
    page: { token: string; csrfToken: string; status?: number; error?: string },
  ): void {
    // The address carries the token: no browser or proxy keeps it, and no Referer leaks it.
    res.setHeader('Referrer-Policy', 'no-referrer');
    renderConsolePage(res, page.status ?? 200, 'console-reset-password.njk', null, {
      action: resetPasswordPath(page.token),
      csrf_token: page.csrfToken,
      min_password_length: MIN_PASSWORD_LENGTH,
      error: page.error ?? null,
    });
  }

  passwordChanged(res: Response): void {
    this.pages.message(res, 200, null, {
      title: 'Your password has been changed',
      message: 'You were signed out everywhere. Sign in with your new password.',
    });
  }

  outbox(res: Response, viewer: Viewer | null, mails: readonly OutboxEntry[], size: number): void {
    renderConsolePage(res, 200, 'console-dev-outbox.njk', viewer, {
      size,
      mails: mails.map((mail) => ({
        subject: mail.subject,
        to: mail.to,
        sent_at: new Date(mail.sentAt).toISOString(),
        text: mail.text,
        links: mail.links,
        calendar: mail.calendar ?? null,
      })),
    });
  }
}
