import { constants } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { randomHex } from '../lib/crypto.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A stable Message-ID ("<…@…>") for mail sent by a job: a repeat after a crash carries the same id, so a mail
   * system or a reader can recognise it. Absent: the transport makes one.
   */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Whether mail can be handed over now (the SMTP server answers; the outbox folder is writable). */
  check(): Promise<void>;
  close(): void;
}

/**
 * Sends through an SMTP server (SMTP_URL). The timeouts are far below a job's lease (2 minutes), so a hanging
 * server fails the attempt instead of outliving the claim and letting another worker send the same mail.
 */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url, {
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 45_000,
  });
  let verifiedAt = 0;
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    // A health probe every few seconds must not open an SMTP connection each time: a good answer holds 30 s.
    async check() {
      if (Date.now() - verifiedAt < 30_000) return;
      await transport.verify();
      verifiedAt = Date.now();
    },
    close: () => transport.close(),
  };
}

/**
 * Embedded default: each message becomes a real RFC 822 .eml file in DATA_DIR/outbox, and its subject (which
 * carries any verification code) is logged so a developer can sign in without a mail server.
 */
export function createOutboxMailer(dir: string, from: string, log: (line: string) => void): Mailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await composer.sendMail({ from, ...message });
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomHex(4)}.eml`);
      await writeFile(file, info.message as Buffer);
      log(`[mail] to ${message.to}: ${message.subject} (${file})`);
    },
    async check() {
      await mkdir(dir, { recursive: true });
      await access(dir, constants.W_OK);
    },
    close: () => composer.close(),
  };
}
