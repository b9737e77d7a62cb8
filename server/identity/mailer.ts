import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { SmtpSettings } from '../config/resolve-effective-config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}


export interface Mailer {
  send(message: MailMessage): Promise<{ delivery: 'smtp' | 'outbox'; file?: string }>;
}

export interface MailerLogger {
  info(object: object, message: string): void;
}

/**
 * Sends through SMTP when configured; otherwise writes each message to DATA_DIR/outbox as an .eml
 * file (the log says a mail was written, never its file name: that name would fetch the code),
 * so a fresh install can still complete password recovery locally.
 */
export function createMailer(options: { smtp: SmtpSettings | null; outboxDir: string; logger: MailerLogger }): Mailer {
  let transporter: Transporter | undefined;
  return {
    async send(message) {
      if (options.smtp) {
        transporter ??= nodemailer.createTransport({
          host: options.smtp.host,
          port: options.smtp.port,
          secure: options.smtp.secure,
          auth: options.smtp.user ? { user: options.smtp.user, pass: options.smtp.password } : undefined,
          // A local relay often has a self-signed certificate; STARTTLS is still attempted.
          tls: { rejectUnauthorized: false },
        });
        await transporter.sendMail({ from: options.smtp.from, to: message.to, subject: message.subject, text: message.text });
        return { delivery: 'smtp' };
      }
      mkdirSync(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      const eml = [
        `To: ${message.to}`,
        `Subject: ${message.subject}`,
        `Date: ${new Date().toUTCString()}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        message.text,
        '',
      ].join('\r\n');
      writeFileSync(file, eml, { mode: 0o600 });
      // Neither the file's name nor its content: the name would let a reader of the log fetch the code.
      options.logger.info({ to: message.to }, 'mail written to DATA_DIR/outbox (no SMTP configured)');
      return { delivery: 'outbox', file };
    },
  };
}
