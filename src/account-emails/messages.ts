import type { Mail } from '../mail/mailer.js';

const SIGNATURE = '— Hiring partner';

/** The mail with the link that verifies a new account's address. */
export function verificationMail(to: string, link: string): Mail {
  return message(to, 'Verify your email address', [
    'Confirm that this is your address by opening this link within 24 hours:',
    link,
    'If you did not create a partner account, ignore this mail.',
  ]);
}

/** The mail with the link that lets the user choose a new password. */
export function passwordResetMail(to: string, link: string): Mail {
  return message(to, 'Reset your password', [
    'Someone asked to reset the password of your partner account. To choose a new password, ' +
      'open this link within an hour:',
    link,
    'If it was not you, ignore this mail: your password stays as it is.',
  ]);
}

/** Paragraphs as a text part, and as HTML with the link (the second paragraph) clickable. */
function message(to: string, subject: string, paragraphs: [string, string, string]): Mail {
  const [before, link, after] = paragraphs;
  return {
    to,
    subject,
    text: [before, link, after, SIGNATURE].join('\n\n'),
    html: [
      `<p>${escapeHtml(before)}</p>`,
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
      `<p>${escapeHtml(after)}</p>`,
      `<p>${escapeHtml(SIGNATURE)}</p>`,
    ].join('\n'),
  };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
