import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { groupTexts } from '@giftlens/contract/group-gifts';
import { expect, test, uniqueEmail } from '../support/fixtures.ts';
import { invitationLink } from '../support/group-api.ts';
import { smallVideo } from '../support/media.ts';
import { GIFT_PHOTOS_DIR, paths } from '../support/paths.ts';

// One fake device: the contributor's camera while recording, and the recipient's camera that sees the gift (cover 001).
test.use({ camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-droid.jpg') });

/** The organizer's contributions, as the panel lists them: "1.From Leela", … */
const listed = (page: Page) =>
  page.getByRole('region', { name: 'Messages, in the order they play' }).getByRole('heading', { level: 4 }).allTextContents();

/** Seconds of media in a file, by ffprobe (0 when it has none it can read). */
function durationOf(file: string): number {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  return Number.parseFloat(out.trim()) || 0;
}

test('a group gift: two invited, one records a video and one writes; the recipient sees all in order; the combined MP4 plays', async ({
  page,
  context,
  mailDir,
  paidGift,
}, testInfo) => {
  // Two conversions (the contribution, then the combined video) on a shared 2-core machine.
  test.setTimeout(360_000);
  const gift = await paidGift({ planId: 'premium_us', message: { kind: 'video', file: smallVideo(), type: 'video/mp4' } });
  const kabir = uniqueEmail('kabir');
  const leela = uniqueEmail('leela');

  // The organizer invites two people from the share page's group section.
  await context.addCookies(gift.senderCookies);
  await page.goto(`${paths.share.href(gift.giftId)}#group`);
  await expect(page.getByText('0 of 0 added')).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('E-mail addresses').fill(`${kabir}\n${leela}`);
  await page.getByRole('button', { name: 'Send invitations' }).click();
  await expect(page.getByText('0 of 2 added')).toBeVisible();
  const invited = page.getByRole('region', { name: 'Invited' });
  await expect(invited.getByText(kabir)).toBeVisible();
  await expect(invited.getByText(leela)).toBeVisible();

  // Kabir opens his e-mailed link and records a video with the camera.
  const first = await context.newPage();
  await first.goto(await invitationLink(mailDir, kabir));
  await expect(first.getByRole('heading', { name: 'Add your message for Ravi' })).toBeVisible();
  await first.getByLabel('Your name').fill('Kabir');
  await first.getByRole('button', { name: 'Start recording' }).click();
  await expect(first.getByRole('button', { name: 'Stop recording' })).toBeEnabled();
  // Two seconds of video on the recorder's own clock (it ticks only while recording), not on the test's.
  await expect(first.getByRole('timer', { name: 'Recording time' })).toHaveText('00:02', { timeout: 20_000 });
  await first.getByRole('button', { name: 'Stop recording' }).click();
  await expect(first.getByLabel('Message preview')).toBeVisible();
  await first.getByRole('button', { name: 'Add my message' }).click();
  await expect(first.getByRole('heading', { name: 'Your message, from Kabir' })).toBeVisible({ timeout: 60_000 });
  // Converted to MP4 like the organizer's message, then playable here.
  await expect(first.getByLabel('Your video message')).toBeVisible({ timeout: 120_000 });
  await first.close();

  // Leela opens hers and writes a text.
  const second = await context.newPage();
  await second.goto(await invitationLink(mailDir, leela));
  await second.getByLabel('Your name').fill('Leela');
  await second.getByRole('tab', { name: 'Text Message' }).click();
  await second.getByLabel('Your message').fill('Happy birthday, Ravi! Have the best day.');
  await second.getByRole('button', { name: 'Add my message' }).click();
  await expect(second.getByRole('heading', { name: 'Your message, from Leela' })).toBeVisible();
  await expect(second.getByText('Happy birthday, Ravi! Have the best day.')).toBeVisible();
  await second.close();

  // The organizer sees both, plays Kabir's, and puts Leela's first.
  await page.reload();
  await expect(page.getByText('2 of 2 added')).toBeVisible({ timeout: 30_000 });
  expect(await listed(page)).toEqual(['1.From Kabir', '2.From Leela']);
  await expect(page.getByLabel('Video message from Kabir')).toBeVisible();
  await page.getByRole('button', { name: 'Move Leela up' }).click();
  await expect.poll(() => listed(page)).toEqual(['1.From Leela', '2.From Kabir']);

  // Closing now makes the combined video; its download is a playable MP4.
  await page.getByRole('button', { name: 'Close contributions now' }).click();
  await page.getByRole('dialog', { name: 'Close contributions now?' }).getByRole('button', { name: 'Close now' }).click();
  await expect(page.getByText(groupTexts.organizerClosed)).toBeVisible();
  const download = page.getByRole('link', { name: 'Download the combined video' });
  await expect(download).toBeVisible({ timeout: 240_000 });
  const combined = await page.request.get((await download.getAttribute('href'))!);
  expect(combined.ok()).toBe(true);
  const file = testInfo.outputPath('combined.mp4');
  writeFileSync(file, await combined.body());
  // Three messages of about 2 s each, with title cards: clearly more than one of them.
  expect(durationOf(file)).toBeGreaterThan(4);

  // The recipient scans once and sees the organizer's message, then Leela's, then Kabir's.
  const recipient = await context.newPage();
  await recipient.goto(paths.scanningCamera.href(gift.giftId, 'direct'));
  await expect(recipient).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 60_000 });
  const list = recipient.getByRole('navigation', { name: 'Messages' });
  // The heading of the message shown: "From {name} (n of 3)".
  const shown = recipient.getByRole('heading', { name: /\(\d of 3\)$/ });
  await expect(list.getByRole('button')).toHaveText(['1. Asha', '2. From Leela', '3. From Kabir']);
  await expect(shown).toHaveText('From Asha (1 of 3)');
  await recipient.getByRole('button', { name: 'Play message' }).click();
  // The organizer's 2 s clip ends and Leela's card follows.
  await expect(shown).toHaveText('From Leela (2 of 3)', { timeout: 30_000 });
  await expect(recipient.getByText('Happy birthday, Ravi! Have the best day.')).toBeVisible();
  await expect(recipient.getByText('— Leela')).toBeVisible();
  await recipient.getByRole('button', { name: 'Next: From Kabir' }).click();
  await expect(shown).toHaveText('From Kabir (3 of 3)');
  await recipient.getByRole('button', { name: 'Play message' }).click();
  const kabirsVideo = recipient.getByLabel('Video message from Kabir');
  await expect.poll(() => kabirsVideo.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.5);
  // The plan includes downloads: the recipient may take the combined video too.
  await expect(recipient.getByRole('link', { name: 'Download all messages as one video' })).toBeVisible();
  await recipient.close();
});
