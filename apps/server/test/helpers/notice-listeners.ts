import { afterAll } from 'vitest';
import { createSmtpMailer } from '../../src/adapters/mail.ts';
import type { HarnessOptions } from './harness.ts';
import { startPushReceiver } from './push-receiver.ts';
import { startTestSmtp } from './smtp.ts';

/**
 * A loopback SMTP server and push service for a test file about the sender's notices (closed after the file), and
 * the harness options that send the app's mail and pushes there.
 */
export async function noticeListeners() {
  const smtp = await startTestSmtp();
  const receiver = await startPushReceiver();
  afterAll(async () => {
    await smtp.close();
    await receiver.close();
  });
  const harness: HarnessOptions = {
    mailer: () => createSmtpMailer(smtp.url, 'GiftLens <no-reply@giftlens.test>'),
    readCode: (email) => smtp.codeFor(email),
    pushAgent: receiver.agent,
    pushAllowedHosts: ['127.0.0.1'],
  };
  return { smtp, receiver, harness };
}
