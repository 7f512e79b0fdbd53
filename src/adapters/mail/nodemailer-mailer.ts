import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer } from '../../application/ports/index.js';

/** Mail through the SMTP server of SMTP_URL (`smtp://` or `smtps://`, credentials in it), from MAIL_FROM. */
export class NodemailerMailer implements Mailer {
  readonly available = true;
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from: string) {
    // Bounded waits: a slow mail server holds only the outbox's turn, never a read.
    const url = new URL(smtpUrl);
    this.transport = createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      ...(url.username && { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(mail: { to: string; subject: string; text: string }): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transport.close();
  }
}

/** Without SMTP_URL and MAIL_FROM: nobody is mailed, and the dashboard says so. */
export class NoMailer implements Mailer {
  readonly available = false;

  async send(): Promise<void> {
    throw new Error('No mail server is configured (SMTP_URL, MAIL_FROM)');
  }
}
