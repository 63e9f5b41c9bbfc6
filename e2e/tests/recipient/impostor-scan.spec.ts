import { resolve } from 'node:path';
import { expect, test } from '../../support/fixtures.ts';
import { API, GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';

// The gift is cover 001 (the fixtures' default); the camera sees cover 002, another object.
test.use({ camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/002-canon.jpg') });

test('a camera that sees another object gets the retry dialog, then the gift-not-found page', async ({
  page,
  paidGift,
}) => {
  const gift = await paidGift({ message: { kind: 'text', text: 'You should never read this with the wrong gift.' } });

  await page.goto(paths.scanningCamera.href(gift.giftId, 'direct'));
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText('No matching gift found. Please try again or contact support.');
  await dialog.getByRole('button', { name: 'Try Again' }).click();

  // The second failed attempt ends the scan.
  await expect(page).toHaveURL(paths.giftNotFound.href(), { timeout: 30_000 });
  await expect(
    page.getByText("We couldn't find your gift. Please try again later or contact support."),
  ).toBeVisible();

  // Nothing was revealed.
  const res = await page.request.get(API.giftMessage(gift.giftId));
  expect(res.status()).toBe(403);
});
