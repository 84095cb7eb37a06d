import type { SharedDependencies } from '../shared-dependencies.js';
import type { Mailer } from './mailer.js';
import { OutboxMailer, UndeliveredMailLog } from './outbox-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

/** Outgoing mail, as the capabilities that send it and the console's outbox page see it. */
export interface MailCapability {
  mailer: Mailer;
  /** The development outbox: only when SMTP_URL is unset outside production. */
  outbox?: OutboxMailer;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set. Without it, outside production mail goes to the log and the
 * development outbox; in production a warning says at start that mail cannot be delivered, and
 * each mail's subject and recipient are logged (never its links).
 */
export function composeMail(shared: SharedDependencies): MailCapability {
  const { config, logger, clock } = shared;
  if (config.mail.smtpUrl) {
    const smtp = new SmtpMailer(config.mail.smtpUrl, config.mail.from);
    return { mailer: smtp, close: () => smtp.close() };
  }
  if (config.env === 'production') {
    logger.warn(
      'SMTP_URL is not set: verification and password-reset mails cannot be delivered; ' +
        'each is logged (subject and recipient only)',
    );
    return { mailer: new UndeliveredMailLog(logger), close: () => {} };
  }
  const outbox = new OutboxMailer(logger, clock);
  return { mailer: outbox, outbox, close: () => {} };
}
