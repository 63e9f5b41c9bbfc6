import { resolve } from 'node:path';
import { texts } from '@giftlens/contract/texts';
import type { Page } from '@playwright/test';
import { madeByFfmpeg } from '../../support/ffmpeg.ts';
import { COVER_001, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';
import { signInWithCode } from '../../support/sender-sign-in.ts';

const COVER_002 = resolve(GIFT_PHOTOS_DIR, 'covers/reference/002.jpg');

/** A photo of a plain surface: nothing a scan could recognise. */
const plainPhoto = () => madeByFfmpeg('photos', 'plain.jpg', ['-f', 'lavfi', '-i', 'color=c=0xc9c2b6:s=800x600', '-frames:v', '1']);

/** A new sender through the wizard up to the message step, with this recipient and photo. */
async function giftUpToMessage(page: Page, mailDir: string, recipientEmail: string, photo: string) {
  await page.goto(paths.send.href());
  await signInWithCode(page, mailDir, uniqueEmail('rating'));
  await page.getByLabel('First name').fill('Asha');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Occasion').selectOption('birthday');
  await page.getByLabel('Recipient name').fill('Ravi');
  await page.getByLabel('Recipient email').fill(recipientEmail);
  await page.locator('input[type="file"][accept^="image"]').setInputFiles(photo);
  await expect(page.getByRole('img', { name: 'Gift preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('tab', { name: /Video/ })).toBeVisible();
}

test.describe('the gift photo’s rating on the message step', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('a plain photo rates low and says why; another angle raises the rating; the same box twice is a look-alike', async ({ page, mailDir, paidGift }) => {
    // the recipient already has an active gift: cover 001, from another sender
    const recipientEmail = uniqueEmail('ravi');
    await paidGift({ recipientEmail, message: { kind: 'text', text: 'Happy birthday!' } });

    await giftUpToMessage(page, mailDir, recipientEmail, plainPhoto());
    await expect(page.getByText('Recognisability 1/5')).toBeVisible();
    await expect(page.getByText(texts.sender.qualityReasons.plain)).toBeVisible();
    await expect(page.getByText(texts.sender.addAnotherAngleAdvice)).toBeVisible();
    await expect(page.getByText(texts.sender.lookalikeWarning)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('rating-low-360.png'), fullPage: true });

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: texts.sender.addAnotherAngle }).click();
    await (await chooser).setFiles(COVER_002);
    await expect(page.getByText('Recognisability 5/5')).toBeVisible();
    await expect(page.getByText(texts.sender.qualityReasons.plain)).toHaveCount(0);
    await expect(page.getByText(texts.sender.lookalikeWarning)).toHaveCount(0);

    // a second gift to the same recipient with the photo of the gift they already have
    await page.evaluate(() => sessionStorage.clear());
    await page.context().clearCookies();
    await giftUpToMessage(page, mailDir, recipientEmail, COVER_001);
    await expect(page.getByText(texts.sender.lookalikeWarning).first()).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: texts.sender.lookalikeWarning })).toBeVisible();
    await expect(page.getByText('Recognisability 5/5')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('lookalike-360.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: test.info().outputPath('lookalike-1280.png'), fullPage: true });
  });
});
