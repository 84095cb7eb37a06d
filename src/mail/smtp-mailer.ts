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
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transport.close();
  }
}
