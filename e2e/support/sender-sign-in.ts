import { expect, type Page } from '@playwright/test';
import { SENDER_RESEND_COOLDOWN_S } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { waitForCode } from './mailbox.ts';

const CODE_SENT = 'Verification code sent to your email!';

/** Types the code into the six boxes; the sixth digit submits it. */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Digit 1 of 6').focus();
  await page.keyboard.type(code);
}

/**
 * On a screen that shows the sender's e-mail step (/send, My Gifts, the share page without a session): sends the
 * code to `email`, reads it from the real SMTP server and types it; the sixth digit submits it.
 */
export async function signInWithCode(page: Page, mailDir: string, email: string): Promise<void> {
  const since = Date.now();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(CODE_SENT)).toBeVisible();
  await typeCode(page, await waitForCode(mailDir, email, since));
}

/**
 * The same for an address that was sent a code less than a minute ago (its sender signed in through the API
 * moments before, as on another device): the server refuses a new code for the rest of the 60 s (429), the page
 * says so and goes on to the code step counting the time down, then Resend code sends a new one.
 * Takes up to a minute: mark the test slow.
 */
export async function signInAgainWithCode(page: Page, mailDir: string, email: string): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(texts.sender.resendTooEarly)).toBeVisible();
  await expect(page.getByText(/^Resend code in \d+s$/)).toBeVisible();
  const resend = page.getByRole('button', { name: 'Resend code' });
  await expect(resend).toBeVisible({ timeout: (SENDER_RESEND_COOLDOWN_S + 5) * 1000 });
  const since = Date.now();
  await resend.click();
  await expect(page.getByText(CODE_SENT)).toBeVisible();
  await typeCode(page, await waitForCode(mailDir, email, since));
}
