import { giftCardTexts, topUpTexts } from '@giftlens/contract/extras-texts';
import { spacedBackupCode, texts } from '@giftlens/contract/texts';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { waitForMail } from '../../support/mailbox.ts';
import { paths } from '../../support/paths.ts';
import { scanGift } from '../../support/recipient-api.ts';
import { COVER_001 } from '../../support/fixtures.ts';
import { myGift } from '../../support/sender-api.ts';

// Issue 40: the card for the box, and a gift that ran out of scans opened again after the sender added 5.

const MESSAGE = 'Happy birthday! Here are five more openings.';

/** The card's preview, whole on a screen `width` px wide, and a screenshot of it beside the test's artifacts. */
async function expectPreviewFits(page: Page, width: number, shot: string) {
  await page.setViewportSize({ width, height: 900 });
  const preview = page.getByTestId('card-preview');
  await preview.scrollIntoViewIfNeeded();
  await expect(preview).toBeVisible();
  const box = (await preview.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  // The credit card's proportions (85.6 × 54 mm), so the preview is the card's shape, not a collapsed box.
  expect(box.width / box.height).toBeCloseTo(85.6 / 53.98, 1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await preview.screenshot({ path: shot });
}

async function openWithCode(page: Page, giftId: string, code: string) {
  await page.goto(paths.backupCode.href(giftId, 'direct'));
  await expect(page.getByRole('heading', { name: texts.backupCode.title })).toBeVisible();
  await page.getByLabel(texts.backupCode.label).fill(spacedBackupCode(code));
  await page.getByRole('button', { name: texts.backupCode.submit }).click();
}

test('the sender prints the card; the gift runs out of scans, the sender adds 5, the recipient opens it again', async ({
  page,
  context,
  browser,
  baseURL,
  mailDir,
  paidGift,
}, testInfo) => {
  test.slow();
  const gift = await paidGift({ planId: 'basic_in', recipientName: 'Priya', message: { kind: 'text', text: MESSAGE } });
  const { backupCode } = await myGift(gift.sender, gift.giftId);
  await context.addCookies(gift.senderCookies);

  // The card, from the share page: preview in English, then Hindi, at 1280 and 360 px; the PDF in that language.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(paths.share.href(gift.giftId));
  await page.getByRole('button', { name: giftCardTexts.offer }).click();
  const preview = page.getByTestId('card-preview');
  await expect(preview).toContainText('For Priya');
  await expect(preview).toContainText(`Backup code: ${spacedBackupCode(backupCode!)}`);
  await page.getByRole('radio', { name: 'हिन्दी (Hindi)' }).check();
  await expect(preview).toContainText('Priya के लिए');
  await expectPreviewFits(page, 1280, testInfo.outputPath('card-preview-1280.png'));
  await expectPreviewFits(page, 360, testInfo.outputPath('card-preview-360.png'));
  const pdfLink = page.getByRole('link', { name: giftCardTexts.open });
  await expect(pdfLink).toHaveAttribute('href', `/api/gift-sender/gifts/${gift.giftId}/card.pdf?lang=hi`);
  const pdf = await page.request.get((await pdfLink.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Basic: 3 scans. The recipient uses them, then finds the gift out of scans.
  for (let i = 0; i < 3; i++) await (await scanGift(baseURL!, gift.giftId, COVER_001)).dispose();
  const recipient = await browser.newContext();
  const phone = await recipient.newPage();
  const ranOutSince = Date.now();
  await openWithCode(phone, gift.giftId, backupCode!);
  await expect(phone.getByText(texts.recipient.scanLimitReached)).toBeVisible();
  // The sender's mails arrive in their own time (the first opening's notice may come after this moment): the newest
  // one becomes the "ran out" notice.
  await expect
    .poll(async () => (await waitForMail(mailDir, gift.senderEmail, { since: ranOutSince })).subject, { timeout: 15_000 })
    .toBe('Priya ran out of scans for your gift');

  // The sender adds 5 from My Gifts, through the test checkout.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(paths.myGifts.href());
  await expect(page.getByText(topUpTexts.ranOut('Priya'))).toBeVisible();
  await page.getByRole('link', { name: topUpTexts.offer(5, '₹29') }).click();
  await expect(page).toHaveURL(paths.addScans.href(gift.giftId));
  await page.getByRole('button', { name: /Pay .*29.* \(test\)/ }).click();
  await expect(page.getByText(topUpTexts.added(5))).toBeVisible();
  await expect(page).toHaveURL(paths.myGifts.href());
  expect(await myGift(gift.sender, gift.giftId)).toMatchObject({ scansUsed: 3, scansAllowed: 8, ended: false });

  // The recipient opens it again.
  await openWithCode(phone, gift.giftId, backupCode!);
  await expect(phone).toHaveURL(paths.giftMessage.href(gift.giftId));
  await expect(phone.getByText(MESSAGE)).toBeVisible();
  await recipient.close();
});
