import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { waitForCode } from '../../support/mailbox.ts';
import { smallVideo } from '../../support/media.ts';
import { expectWrapsBetweenParts } from '../../support/layout.ts';
import { atRoute, GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';

// A 360x740 phone whose camera sees the gift (cover 001, the fixtures' default): every recipient screen's main
// action is on screen without scrolling.
test.use({
  viewport: { width: 360, height: 740 },
  isMobile: true,
  hasTouch: true,
  camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-canon.jpg'),
});

async function expectAboveTheFold(page: Page, action: Locator) {
  await expect(action).toBeVisible();
  expect(await page.evaluate(() => window.scrollY), 'the page did not scroll').toBe(0);
  const box = await action.boundingBox();
  expect(box, 'the action has a box').not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, 'the whole button is within the 740 px screen').toBeLessThanOrEqual(740);
}

test('the greeting, the e-mail and code steps, the instructions and the message keep their main button on screen', async ({
  page,
  mailDir,
  paidGift,
}) => {
  const gift = await paidGift({
    recipientName: 'Ravi',
    message: { kind: 'video', file: smallVideo(), type: 'video/mp4' },
  });

  await page.goto(paths.shareLink.href(gift.giftId));
  await expect(page.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Start the Magic' }));

  await page.goto(paths.scan.href());
  await page.getByLabel('Email address').fill(gift.recipientEmail);
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Continue' }));
  const since = Date.now();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Verify Your Email' })).toBeVisible();
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Verify' }));
  const code = await waitForCode(mailDir, gift.recipientEmail, since);
  await page.getByLabel('Digit 1 of 6').focus();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(atRoute(paths.scanningInstructions));
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Start the Magic' }));

  // The camera sees the gift; the message page's Play button is on screen too.
  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Play message' }));
});

test('a long e-mail address on the code screen wraps after the @ or before a dot, never inside a word', async ({
  page,
  paidGift,
}) => {
  const email = `ravindra.krishnamurthy-subramanian.${Date.now()}@example-mail-provider.co.in`;
  await paidGift({ recipientEmail: email, message: { kind: 'text', text: 'Hello' } });
  await page.goto(paths.scan.href());
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Verify Your Email' })).toBeVisible();
  await expectWrapsBetweenParts(page.getByText(email, { exact: true }));
});
