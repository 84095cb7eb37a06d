import type { Mail } from '../mail/mailer.js';
import { paragraphMail as message } from '../mail/paragraph-mail.js';

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
