import { resolve } from 'node:path';
import { photoToY4m } from '../../support/camera.ts';
import { chromiumArgs } from '../../support/chromium.ts';
import { expect, test } from '../../support/fixtures.ts';
import { createPaidGift } from '../../support/gifts.ts';
import { GIFT_PHOTOS_DIR } from '../../support/paths.ts';

// The gift is cover 001; the camera sees cover 002, another object.
const REFERENCE = resolve(GIFT_PHOTOS_DIR, 'covers/reference/001.jpg');
const CAMERA_SEES = resolve(GIFT_PHOTOS_DIR, 'covers/photos/002-canon.jpg');

test.use({
  launchOptions: {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: chromiumArgs(photoToY4m(CAMERA_SEES)),
  },
});

test('a camera that sees another object gets the retry dialog, then the gift-not-found page', async ({
  page,
  baseURL,
  mailDir,
}) => {
  const gift = await createPaidGift({
    baseURL: baseURL!,
    mailDir,
    photo: REFERENCE,
    planId: 'premium_us',
    message: { kind: 'text', text: 'You should never read this with the wrong gift.' },
  });

  await page.goto(`/scanning-camera/${gift.giftId}?type=direct`);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText('No matching gift found. Please try again or contact support.');
  await dialog.getByRole('button', { name: 'Try Again' }).click();

  // The second failed attempt ends the scan.
  await expect(page).toHaveURL(/\/gift-not-found$/, { timeout: 30_000 });
  await expect(
    page.getByText("We couldn't find your gift. Please try again later or contact support."),
  ).toBeVisible();

  // Nothing was revealed.
  const res = await page.request.get(`/api/verification-recipient/gift-message/${gift.giftId}`);
  expect(res.status()).toBe(403);
});
