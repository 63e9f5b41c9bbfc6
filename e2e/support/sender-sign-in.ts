import { expect, type Page } from '@playwright/test';
import { waitForCode } from './mailbox.ts';

/**
 * On a screen that shows the sender's e-mail step (/send, My Gifts, the share page without a session): sends the
 * code to `email`, reads it from the real SMTP server and types it; the sixth digit submits it.
 */
export async function signInWithCode(page: Page, mailDir: string, email: string): Promise<void> {
  const since = Date.now();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Verification code sent to your email!')).toBeVisible();
  const code = await waitForCode(mailDir, email, since);
  await page.getByLabel('Digit 1 of 6').focus();
  await page.keyboard.type(code);
}
