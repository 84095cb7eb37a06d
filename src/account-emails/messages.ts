import type { Mail } from '../mail/mailer.js';

const SIGNATURE = '— Hiring partner';

/** A paragraph of text, or a link on a paragraph of its own (clickable in the HTML part). */
type Paragraph = string | { link: string };

/** The mail with the link that verifies a new account's address. */
export function verificationMail(to: string, link: string): Mail {
  return message(to, 'Verify your email address', [
    'Confirm that this is your address by opening this link within 24 hours:',
    { link },
    'If you did not create a partner account, ignore this mail.',
  ]);
}

/** The mail with the link that lets the user choose a new password. */
export function passwordResetMail(to: string, link: string): Mail {
  return message(to, 'Reset your password', [
    'Someone asked to reset the password of your partner account. To choose a new password, ' +
      'open this link within an hour:',
    { link },
    'If it was not you, ignore this mail: your password stays as it is.',
  ]);
}

/**
 * The mail to the owner of an address someone tried to sign up with: sign-up answers the same
 * whether or not the address has an account, so its owner learns of it here instead.
 */
export function existingAccountMail(
  to: string,
  links: { signIn: string; forgotPassword: string },
): Mail {
  return message(to, 'You already have a partner account', [
    'Someone tried to create a partner account with this address, which already has one. ' +
      'If it was you, sign in:',
    { link: links.signIn },
    'If you forgot your password, choose a new one here:',
    { link: links.forgotPassword },
    'If it was not you, ignore this mail: nothing was changed.',
  ]);
}

/** Paragraphs as a text part, and as HTML with the links clickable. */
function message(to: string, subject: string, paragraphs: readonly Paragraph[]): Mail {
  const all = [...paragraphs, SIGNATURE];
  return {
    to,
    subject,
    text: all
      .map((paragraph) => (typeof paragraph === 'string' ? paragraph : paragraph.link))
      .join('\n\n'),
    html: all
      .map((paragraph) =>
        typeof paragraph === 'string'
          ? `<p>${escapeHtml(paragraph)}</p>`
          : `<p><a href="${escapeHtml(paragraph.link)}">${escapeHtml(paragraph.link)}</a></p>`,
      )
      .join('\n'),
  };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
