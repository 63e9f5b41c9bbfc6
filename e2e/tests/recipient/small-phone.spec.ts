import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { photoToY4m } from '../../support/camera.ts';
import { chromiumArgs } from '../../support/chromium.ts';
import { expect, test } from '../../support/fixtures.ts';
import { createPaidGift } from '../../support/gifts.ts';
import { waitForCode } from '../../support/mailbox.ts';
import { smallVideo } from '../../support/media.ts';
import { expectWrapsBetweenParts } from '../../support/layout.ts';
import { GIFT_PHOTOS_DIR } from '../../support/paths.ts';

const REFERENCE = resolve(GIFT_PHOTOS_DIR, 'covers/reference/001.jpg');
const PHONE_PHOTO = resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-canon.jpg');

// A 360x740 phone whose camera sees the gift: every recipient screen's main action is on screen without scrolling.
test.use({
  viewport: { width: 360, height: 740 },
  isMobile: true,
  hasTouch: true,
  launchOptions: {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: chromiumArgs(photoToY4m(PHONE_PHOTO)),
  },
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
  baseURL,
  mailDir,
}) => {
  const gift = await createPaidGift({
    baseURL: baseURL!,
    mailDir,
    photo: REFERENCE,
    planId: 'premium_us',
    recipientName: 'Ravi',
    message: { kind: 'video', file: smallVideo(), type: 'video/mp4' },
  });

  await page.goto(`/sharelink/${gift.giftId}`);
  await expect(page.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Start the Magic' }));

  await page.goto('/scan');
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
  await expect(page).toHaveURL(/\/scanning-instructions\//);
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Start the Magic' }));

  // The camera sees the gift; the message page's Play button is on screen too.
  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await expect(page).toHaveURL(new RegExp(`/gift-message/${gift.giftId}$`), { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
  await expectAboveTheFold(page, page.getByRole('button', { name: 'Play message' }));
});

test('a long e-mail address on the code screen wraps after the @ or before a dot, never inside a word', async ({
  page,
  baseURL,
  mailDir,
}) => {
  const email = `ravindra.krishnamurthy-subramanian.${Date.now()}@example-mail-provider.co.in`;
  await createPaidGift({
    baseURL: baseURL!,
    mailDir,
    photo: REFERENCE,
    planId: 'premium_us',
    recipientEmail: email,
    message: { kind: 'text', text: 'Hello' },
  });
  await page.goto('/scan');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Verify Your Email' })).toBeVisible();
  await expectWrapsBetweenParts(page.getByText(email, { exact: true }));
});
