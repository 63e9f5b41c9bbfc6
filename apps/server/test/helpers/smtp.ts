import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * accept: every message is taken; fail: every message is refused with a temporary error (451);
 * hang: the message is read and never answered (a server that stalls after DATA).
 */
export type SmtpMode = 'accept' | 'fail' | 'hang';

export interface TestSmtp {
  port: number;
  url: string;
  received: ParsedMail[];
  /** Messages whose DATA arrived (answered or not). */
  dataStarted: number;
  /**
   * Errors of client connections (smtp-server emits them on the server): a sender killed in the middle of a
   * conversation resets its connection (the fault tests do that on purpose). Kept here instead of thrown.
   */
  connectionErrors: Error[];
  mode: SmtpMode;
  /** The verification code in the newest mail to `email`. */
  codeFor(email: string): Promise<string>;
  /** Resolves when `count` messages have been accepted. */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on a loopback port, parsing what it accepts. */
export async function startTestSmtp(mode: SmtpMode = 'accept'): Promise<TestSmtp> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const state: TestSmtp = {
    port: 0,
    url: '',
    received: [],
    dataStarted: 0,
    connectionErrors: [],
    mode,
    async waitFor(count, timeoutMs = 30_000) {
      if (state.received.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`only ${state.received.length} of ${count} mails arrived in ${timeoutMs} ms`)),
            timeoutMs,
          );
          waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return state.received;
    },
    async codeFor(email) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const mail = state.received.findLast((m) => m.to && !Array.isArray(m.to) && m.to.text === email);
        const code = mail?.subject && /verification code is (\d{6})$/.exec(mail.subject)?.[1];
        if (code) return code;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no code mailed to ${email} within 30 s`);
        // Looked at again when the next mail arrives, whoever it is for.
        await state.waitFor(state.received.length + 1, left).catch(() => undefined);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      state.dataStarted++;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.mode === 'hang') return;
        if (state.mode === 'fail') {
          const err = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
          callback(err);
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((mail) => {
          state.received.push(mail);
          callback();
          for (const w of waiters.filter((x) => state.received.length >= x.count)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        });
      });
    },
  });
  server.on('error', (err: Error) => state.connectionErrors.push(err));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}
