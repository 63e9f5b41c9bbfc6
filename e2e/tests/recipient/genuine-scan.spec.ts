import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { waitForCode } from '../../support/mailbox.ts';
import { chromeRecording, smallVideo } from '../../support/media.ts';
import { atRoute, GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';

// The sender photographed DVD cover 001 (the fixtures' default gift); the recipient's camera sees a phone photo
// of the same cover.
test.use({ camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-canon.jpg') });

async function expectVideoPlays(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
  await expect(page.getByText('From Asha')).toBeVisible();
  await page.getByRole('button', { name: 'Play message' }).click();
  const video = page.locator('video');
  await expect(video).toHaveAttribute('controlslist', /nodownload/);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0.2);
}

test('a recipient opens the share link, the camera sees the gift, and the video message plays', async ({
  page,
  paidGift,
}) => {
  const gift = await paidGift({ message: { kind: 'video', file: smallVideo(), type: 'video/mp4' } });

  await page.goto(paths.shareLink.href(gift.giftId));
  await expect(page.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();
  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await expect(page).toHaveURL(paths.scanningCamera.href(gift.giftId, 'direct'));

  // The camera starts and live scanning sends its good frames: the first decisive one opens the message, no tap.
  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 30_000 });
  await expectVideoPlays(page);
});

test('a recipient proves their e-mail with a code, scans the gift, and reads the text message', async ({
  page,
  mailDir,
  paidGift,
}) => {
  const gift = await paidGift({
    recipientName: 'Priya',
    message: { kind: 'text', text: 'Happy birthday, Priya! Open the box slowly.' },
  });

  await page.goto(paths.scan.href());
  await expect(page.getByRole('heading', { name: "Let's begin!" })).toBeVisible();
  const since = Date.now();
  await page.getByLabel('Email address').fill(gift.recipientEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Verify Your Email' })).toBeVisible();
  await expect(page.getByText(/Resend code in \d+s/)).toBeVisible();

  const code = await waitForCode(mailDir, gift.recipientEmail, since);
  await page.getByLabel('Digit 1 of 6').focus();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Verify' }).click();

  await expect(page).toHaveURL(atRoute(paths.scanningInstructions));
  await expect(page.getByRole('heading', { name: /Priya/ })).toBeVisible();
  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await expect(page).toHaveURL(atRoute(paths.scanningCamera));

  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
  await expect(page.getByText('Happy birthday, Priya! Open the box slowly.')).toBeVisible();
});

test('a message recorded in Chrome (VP9/Opus WebM) is converted, and the recipient gets an MP4 with a poster that plays', async ({
  page,
  paidGift,
}) => {
  const gift = await paidGift({ message: { kind: 'video', file: chromeRecording(), type: 'video/webm' } });

  await page.goto(paths.shareLink.href(gift.giftId));
  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 30_000 });
  const video = page.locator('video');
  await expect(video).toHaveAttribute('src', /\/media\/gifts\/.+\.mp4\?exp=/);
  await expect(video).toHaveAttribute('poster', /\/media\/gifts\/.+\.jpg\?exp=/);
  await expectVideoPlays(page);
});
