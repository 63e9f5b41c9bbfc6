import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { photoToY4m } from '../../support/camera.ts';
import { chromiumArgs } from '../../support/chromium.ts';
import { expect, test } from '../../support/fixtures.ts';
import { createPaidGift } from '../../support/gifts.ts';
import { smallVideo } from '../../support/media.ts';
import { GIFT_PHOTOS_DIR } from '../../support/paths.ts';
import { reactionsFor } from '../../support/seed.ts';

const REFERENCE = resolve(GIFT_PHOTOS_DIR, 'covers/reference/001.jpg');
const CAMERA_SEES = resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-droid.jpg');

// One fake device serves as both the rear camera (scan) and the front camera (reaction).
test.use({
  launchOptions: {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: chromiumArgs(photoToY4m(CAMERA_SEES)),
  },
});

async function scanToMessage(page: Page, giftId: string): Promise<void> {
  await page.goto(`/scanning-camera/${giftId}?type=direct`);
  await expect(page).toHaveURL(new RegExp(`/gift-message/${giftId}$`), { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
}

test('on a Lifetime gift the recipient consents and their reaction is recorded and saved', async ({
  page,
  baseURL,
  mailDir,
}) => {
  const gift = await createPaidGift({
    baseURL: baseURL!,
    mailDir,
    photo: REFERENCE,
    planId: 'lifetime_us',
    message: { kind: 'video', file: smallVideo(), type: 'video/mp4' },
  });
  await scanToMessage(page, gift.giftId);

  await page.getByRole('button', { name: 'Play message' }).click();
  const consent = page.getByRole('dialog', { name: 'Record your reaction?' });
  await expect(consent).toBeVisible();
  await consent.getByRole('button', { name: 'Play & Record Video' }).click();

  await expect(page.getByLabel('Recording your reaction')).toBeVisible();
  // The 2 s message ends, recording stops 1 s later and the reaction uploads.
  await expect(page.getByText('Your video reaction has been captured and saved!')).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByLabel('Recording your reaction')).toBeHidden();

  const rows = reactionsFor(gift.giftId);
  expect(rows).toHaveLength(1);
  expect(rows[0]?.consent_granted).toBe(1);
  expect(rows[0]?.file_path).toBeTruthy();

  // A second play finds the recorded reaction and only plays.
  await page.reload();
  await page.getByRole('button', { name: 'Play message' }).click();
  await expect(page.getByText('This gift already has a recorded reaction. Playing message...')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Record your reaction?' })).toBeHidden();
  expect(reactionsFor(gift.giftId).filter((r) => r.file_path)).toHaveLength(1);
});

test('"Just Play" plays the message and records nothing', async ({ page, baseURL, mailDir }) => {
  const gift = await createPaidGift({
    baseURL: baseURL!,
    mailDir,
    photo: REFERENCE,
    planId: 'lifetime_us',
    message: { kind: 'video', file: smallVideo(), type: 'video/mp4' },
  });
  await scanToMessage(page, gift.giftId);

  await page.getByRole('button', { name: 'Play message' }).click();
  const consent = page.getByRole('dialog', { name: 'Record your reaction?' });
  await consent.getByRole('button', { name: 'Just Play' }).click();

  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended), { timeout: 15_000 }).toBe(true);
  await expect(page.getByLabel('Recording your reaction')).toBeHidden();
  expect(reactionsFor(gift.giftId).filter((r) => r.file_path || r.consent_granted === 1)).toHaveLength(0);
});
