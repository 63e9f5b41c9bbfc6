import { resolve } from 'node:path';
import { STILL_LOOKING_AFTER_MS } from '@giftlens/contract/constants';
import { spacedBackupCode, texts } from '@giftlens/contract/texts';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { waitForMail } from '../../support/mailbox.ts';
import { missTwice, recipientSignsIn } from '../../support/recipient-flow.ts';
import { API, atRoute, GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';
import { myGift } from '../../support/sender-api.ts';

// When the gift is not recognised: "Still looking…", Try again, the backup code. The gift is cover 001 (the
// fixtures' default); the camera sees cover 002, another object, so recognition never succeeds and the recipient
// needs another way in.
test.use({ camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/002-canon.jpg') });

const MESSAGE = 'Happy birthday! This opened with the backup code.';

async function typeCode(page: Page, code: string) {
  await expect(page.getByRole('heading', { name: texts.backupCode.title })).toBeVisible();
  await page.getByLabel(texts.backupCode.label).fill(code);
  await page.getByRole('button', { name: texts.backupCode.submit }).click();
}

test('a wrong gift in view: "Still looking" after 8 s while live frames go on; the backup code from the retry dialog opens the message', async ({
  page,
  paidGift,
  mailDir,
}) => {
  const gift = await paidGift({ message: { kind: 'text', text: MESSAGE } });
  const { backupCode } = await myGift(gift.sender, gift.giftId);
  expect(backupCode).toMatch(/^\d{8}$/);
  // The payment confirmation e-mail gives the sender the same code, with the line about the card.
  let mail = await waitForMail(mailDir, gift.senderEmail);
  await expect
    .poll(async () => (mail = await waitForMail(mailDir, gift.senderEmail)).subject, { timeout: 15_000 })
    .toBe(texts.backupCode.emailSubject('Ravi'));
  expect(mail.text).toContain(spacedBackupCode(backupCode!));
  expect(mail.text).toContain(texts.backupCode.writeOnCard);

  let frames = 0;
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === API.liveFrameDirect(gift.giftId) && res.status() === 200) frames++;
  });
  await page.goto(paths.scanningCamera.href(gift.giftId, 'direct'));
  await expect(page.getByRole('status')).toHaveText(texts.recipient.looking);
  const lookingAt = Date.now();
  await expect(page.getByRole('status')).toHaveText(texts.recipient.stillLooking, { timeout: STILL_LOOKING_AFTER_MS + 5000 });
  expect(Date.now() - lookingAt).toBeGreaterThanOrEqual(STILL_LOOKING_AFTER_MS - 1000);
  // Live scanning goes on under the hint: more frames are matched (and missed), no attempt used, Take Photo ready.
  const framesThen = frames;
  await expect.poll(() => frames, { timeout: 10_000 }).toBeGreaterThan(framesThen + 1);
  await expect(page.getByText('Attempt 1 of 2')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Take Photo' })).toBeEnabled();

  await page.getByRole('button', { name: 'Take Photo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Gift not recognised' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: texts.backupCode.choose }).click();
  await expect(page).toHaveURL(paths.backupCode.href(gift.giftId, 'direct'));

  // One digit off: the server's words, and the form stays.
  await typeCode(page, backupCode!.slice(0, 7) + String((Number(backupCode!.at(7)) + 1) % 10));
  await expect(page.getByText(texts.backupCode.wrong)).toBeVisible();
  await typeCode(page, spacedBackupCode(backupCode!));
  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId));
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
  await expect(page.getByText(MESSAGE)).toBeVisible();
  // Counted as a reveal, as a matching scan is.
  expect((await myGift(gift.sender, gift.giftId)).scansUsed).toBe(1);
});

test('by gift link, /gift-not-found’s Try again goes back to that gift’s camera, and it offers the backup code', async ({
  page,
  paidGift,
}) => {
  const gift = await paidGift({ message: { kind: 'text', text: MESSAGE } });
  await page.goto(paths.shareLink.href(gift.giftId));
  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await missTwice(page);

  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page).toHaveURL(paths.scanningCamera.href(gift.giftId, 'direct'));
  await expect(page.getByRole('status')).toHaveText(texts.recipient.looking);

  await missTwice(page);
  await page.getByRole('link', { name: texts.backupCode.choose }).click();
  await expect(page).toHaveURL(paths.backupCode.href(gift.giftId, 'direct'));
  const { backupCode } = await myGift(gift.sender, gift.giftId);
  await typeCode(page, backupCode!);
  await expect(page.getByText(MESSAGE)).toBeVisible();
});

test('by e-mail code, /gift-not-found’s Try again goes back to the instructions; the backup code opens the gift', async ({
  page,
  paidGift,
  mailDir,
}) => {
  const gift = await paidGift({ recipientName: 'Priya', message: { kind: 'text', text: MESSAGE } });
  await recipientSignsIn(page, mailDir, gift.recipientEmail);
  const instructions = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await missTwice(page);

  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page).toHaveURL(instructions);
  await expect(page.getByRole('heading', { name: /Priya/ })).toBeVisible();

  await page.getByRole('button', { name: 'Start the Magic' }).click();
  await missTwice(page);
  await page.getByRole('link', { name: texts.backupCode.choose }).click();
  await expect(page).toHaveURL(atRoute(paths.backupCode));
  const { backupCode } = await myGift(gift.sender, gift.giftId);
  await typeCode(page, backupCode!);
  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId));
  await expect(page.getByText(MESSAGE)).toBeVisible();
});

test('a new code made in My Gifts replaces the old one at once; the share page shows the code too', async ({ page, paidGift, baseURL }) => {
  const gift = await paidGift({ message: { kind: 'text', text: MESSAGE } });
  const old = (await myGift(gift.sender, gift.giftId)).backupCode!;
  await page.context().addCookies(gift.senderCookies);

  await page.goto(paths.share.href(gift.giftId));
  const share = page.getByRole('region', { name: texts.backupCode.heading });
  await expect(share.getByTestId('backup-code')).toHaveText(spacedBackupCode(old));
  await expect(share).toContainText(texts.backupCode.writeOnCard);

  await page.goto(paths.myGifts.href());
  const card = page.getByRole('article', { name: 'For Ravi' });
  const box = card.getByRole('region', { name: texts.backupCode.heading });
  await expect(box.getByTestId('backup-code')).toHaveText(spacedBackupCode(old));
  await box.getByRole('button', { name: texts.backupCode.regenerate }).click();
  await expect(box).toContainText(texts.backupCode.confirmRegenerate);
  await box.getByRole('button', { name: texts.backupCode.regenerate }).click();
  await expect(page.getByText(texts.backupCode.regenerated)).toBeVisible();
  const renewed = (await myGift(gift.sender, gift.giftId)).backupCode!;
  await expect(box.getByTestId('backup-code')).toHaveText(spacedBackupCode(renewed));

  // The recipient's side, from another browser context: the old code no longer opens the gift.
  const recipient = await page.context().browser()!.newContext({ baseURL });
  const stale = await recipient.request.post(API.openWithCodeDirect(gift.giftId), { data: { code: old } });
  expect(stale.status()).toBe(renewed === old ? 200 : 400);
  const fresh = await recipient.request.post(API.openWithCodeDirect(gift.giftId), { data: { code: renewed } });
  expect(fresh.status()).toBe(200);
  await recipient.close();
});

test('a dead gift link says so; an expired message link goes back to the gift’s camera', async ({ page, paidGift }) => {
  await page.goto(paths.shareLink.href('0123456789abcdef0123456789abcdef'));
  await expect(page.getByRole('alert')).toHaveText(texts.recipient.giftLinkGone);
  await expect(page.getByText(texts.recipient.verifyGiftHttpFailed)).toHaveCount(0);

  // A deleted gift's link alike.
  const gone = await paidGift({ message: { kind: 'text', text: MESSAGE } });
  expect((await gone.sender.delete(API.senderGift(gone.giftId))).status()).toBe(200);
  await page.goto(paths.shareLink.href(gone.giftId));
  await expect(page.getByRole('alert')).toHaveText(texts.recipient.giftLinkGone);

  const gift = await paidGift({ message: { kind: 'text', text: MESSAGE } });
  await page.goto(paths.backupCode.href(gift.giftId, 'direct'));
  await typeCode(page, (await myGift(gift.sender, gift.giftId)).backupCode!);
  await expect(page.getByText(MESSAGE)).toBeVisible();
  // Six minutes later the message link has expired: reopening it goes to this gift's camera, not the landing page.
  await page.evaluate(() => {
    const link = JSON.parse(localStorage.getItem('signedMessageUrl') ?? '{}') as { timestamp: number };
    localStorage.setItem('signedMessageUrl', JSON.stringify({ ...link, timestamp: link.timestamp - 6 * 60_000 }));
  });
  await page.goto(paths.giftMessage.href(gift.giftId));
  await expect(page).toHaveURL(paths.scanningCamera.href(gift.giftId, 'direct'));
  await expect(page.getByText(texts.recipient.linkExpired)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(texts.recipient.looking);
});

