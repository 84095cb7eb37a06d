import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The message with quoted-printable soft breaks and escapes undone. */
  body: string;
  /** The service's links in it, each once. */
  links: string[];
  /** The message as received, every part still encoded. */
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it receives. */
export class SmtpInbox {
  readonly mails: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
  ) {}

  static async start(): Promise<SmtpInbox> {
    // The server needs its handler before the inbox (which needs the server's port) exists.
    const holder: { inbox?: SmtpInbox } = {};
    const server = new SMTPServer({
      authOptional: true,
      // Plain SMTP on loopback: nodemailer would refuse STARTTLS with a self-signed certificate.
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
          holder.inbox?.receive(to, Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    holder.inbox = new SmtpInbox(server, `smtp://127.0.0.1:${port}`);
    return holder.inbox;
  }

  /** The mails to `address`, oldest first. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  /** Waits for the `count`-th mail to `address` (5 s at most) and returns it. */
  async waitFor(address: string, count = 1): Promise<ReceivedMail> {
    const deadline = Date.now() + 5000;
    while (this.to(address).length < count) {
      if (Date.now() > deadline) throw new Error(`no mail #${count} to ${address} within 5 s`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.to(address)[count - 1]!;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(to: string[], raw: string): void {
    const body = raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
    const links = [...new Set(body.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
    this.mails.push({ to, subject, body, links, raw });
    for (const wake of this.waiters.splice(0)) wake();
  }
}
