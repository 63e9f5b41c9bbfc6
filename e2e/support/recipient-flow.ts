import { expect, type Page } from '@playwright/test';
import { waitForCode } from './mailbox.ts';
import { atRoute, paths } from './paths.ts';

/** Two Take Photo misses on the camera page: the retry dialog, Try Again, then /gift-not-found. */
export async function missTwice(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Take Photo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Gift not recognised' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Try Again' }).click();
  await page.getByRole('button', { name: 'Take Photo' }).click();
  await expect(page).toHaveURL(paths.giftNotFound.href(), { timeout: 30_000 });
}

/** The e-mail code flow in the page (/scan, the code from the mailbox): ends on the recipient's instructions. */
export async function recipientSignsIn(page: Page, mailDir: string, email: string): Promise<void> {
  await page.goto(paths.scan.href());
  const since = Date.now();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await waitForCode(mailDir, email, since);
  await page.getByLabel('Digit 1 of 6').focus();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(atRoute(paths.scanningInstructions));
}
