import { createTransport, type Transporter } from 'nodemailer';
import type { Mail, Mailer } from './mailer.js';

/** Sends through the SMTP server of SMTP_URL (`smtp://` with STARTTLS when offered, `smtps://`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(smtpUrl);
  }

  async send(mail: Mail): Promise<void> {
    const { calendar, ...parts } = mail;
    // nodemailer puts the event in twice: a text/calendar alternative (what mail clients turn
    // into an invitation) and an application/ics attachment (what the others can import).
    await this.transport.sendMail({
      from: this.from,
      ...parts,
      ...(calendar && { icalEvent: calendar }),
    });
  }

  close(): void {
    this.transport.close();
  }
}
