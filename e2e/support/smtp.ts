import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a loopback port. Every message it receives is written as an .eml file into
 * `mailDir`, named by arrival time, so any test worker can read it (see mailbox.ts). An address `refuse` names
 * (lowercased) is refused at RCPT TO with a 550, as a mailbox that does not exist is.
 */
export async function startSmtpServer(
  mailDir: string,
  { refuse }: { refuse?: (address: string) => boolean } = {},
): Promise<{ port: number; close(): Promise<void> }> {
  mkdirSync(mailDir, { recursive: true });
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse?.(address.address.toLowerCase())) {
        callback(Object.assign(new Error(`550 5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const name = `${Date.now()}-${String(seq++).padStart(5, '0')}.eml`;
        writeFileSync(join(mailDir, name), Buffer.concat(chunks));
        callback();
      });
    },
  });
  // smtp-server emits a client connection's errors on the server (a server process stopped in the middle of a
  // conversation resets it): said, not thrown into the test runner.
  server.on('error', (err: Error) => console.warn(`test SMTP server: a client connection failed: ${err.message}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
