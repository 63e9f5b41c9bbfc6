import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser } from 'mailparser';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  file: string;
}

/** Every message received so far, oldest first. */
export async function readAll(mailDir: string): Promise<ReceivedMail[]> {
  const files = readdirSync(mailDir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await simpleParser(readFileSync(join(mailDir, file)));
      const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(',') : (parsed.to?.text ?? '');
      return { to: to.toLowerCase(), subject: parsed.subject ?? '', text: parsed.text ?? '', file };
    }),
  );
}

/** Waits for the newest message to `address` that arrived after `since` (epoch ms). */
export async function waitForMail(
  mailDir: string,
  address: string,
  { since = 0, timeoutMs = 15_000 }: { since?: number; timeoutMs?: number } = {},
): Promise<ReceivedMail> {
  let newest: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        newest = (await readAll(mailDir))
          .filter((m) => m.to.includes(address.toLowerCase()) && Number(m.file.split('-')[0]) >= since)
          .at(-1);
        return newest !== undefined;
      },
      { message: `an e-mail to ${address}`, timeout: timeoutMs, intervals: [200] },
    )
    .toBe(true);
  return newest!;
}

/**
 * The 6-digit verification code in the newest e-mail to `address` that holds one (a sender may also get other
 * mail meanwhile, e.g. a payment confirmation with its backup code).
 */
export async function waitForCode(mailDir: string, address: string, since = 0): Promise<string> {
  const codeIn = (m: ReceivedMail) => /^Your GiftLens verification code is (\d{6})$/.exec(m.subject)?.[1] ?? /\b(\d{6})\b/.exec(`${m.subject}\n${m.text}`)?.[1];
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await readAll(mailDir)).filter((m) => m.to.includes(address.toLowerCase()) && Number(m.file.split('-')[0]) >= since);
        code = mails.map(codeIn).filter(Boolean).at(-1);
        return code !== undefined;
      },
      { message: `an e-mail with a code to ${address}`, timeout: 15_000, intervals: [200] },
    )
    .toBe(true);
  return code!;
}
