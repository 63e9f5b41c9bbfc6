import { resolve } from 'node:path';
import { expect, test } from '../../support/fixtures.ts';
import { tabTo } from '../../support/keyboard.ts';
import { smallVideo } from '../../support/media.ts';
import { GIFT_PHOTOS_DIR, paths } from '../../support/paths.ts';

// The camera sees a phone photo of cover 001, the fixtures' default gift (one device: rear and front camera).
test.use({ camera: resolve(GIFT_PHOTOS_DIR, 'covers/photos/001-droid.jpg') });

// The recipient's journey with the keyboard alone, by the gift link, on a Lifetime gift: the camera, the message,
// and the reaction consent dialog, after which focus is on the player, not the page. axe checks every screen.
test('keyboard only: a recipient opens the gift link, the camera finds the gift, and the message plays', async ({
  page,
  paidGift,
}) => {
  const gift = await paidGift({ planId: 'lifetime_us', message: { kind: 'video', file: smallVideo(), type: 'video/mp4' } });
  await page.goto(paths.shareLink.href(gift.giftId));
  await expect(page.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Start the Magic' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'A Special Message For You' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Play message' }));
  await page.keyboard.press('Enter');

  const consent = page.getByRole('dialog', { name: 'Record your reaction?' });
  await expect(consent).toBeVisible();
  await tabTo(page, consent.getByRole('button', { name: 'Just Play' }));
  await page.keyboard.press('Enter');
  await expect(consent).toBeHidden();
  const player = page.getByLabel(/^Video message from/);
  await expect(player).toBeFocused();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.2);
});

test('the consent dialog closed with Escape hands focus to the player', async ({ page, paidGift }) => {
  const gift = await paidGift({ planId: 'lifetime_us', message: { kind: 'video', file: smallVideo(), type: 'video/mp4' } });
  await page.goto(paths.scanningCamera.href(gift.giftId, 'direct'));
  await expect(page).toHaveURL(paths.giftMessage.href(gift.giftId), { timeout: 30_000 });
  await page.getByRole('button', { name: 'Play message' }).focus();
  await page.keyboard.press('Enter');
  const consent = page.getByRole('dialog', { name: 'Record your reaction?' });
  await expect(consent).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(consent).toBeHidden();
  await expect(page.getByLabel(/^Video message from/)).toBeFocused();
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('nothing on the camera screen keeps moving: no sweep, spin or pulse runs for good', async ({ page, paidGift }) => {
    const gift = await paidGift({ message: { kind: 'text', text: 'Hello' } });
    // A wrong gift id would leave the page; the real one matches: look before the first frame is sent.
    await page.route('**/live-frame/**', (route) => route.fulfill({ status: 503, headers: { 'Retry-After': '30' }, body: '{}' }));
    const firstFrame = page.waitForResponse('**/live-frame/**');
    await page.goto(paths.scanningCamera.href(gift.giftId, 'direct'));
    await expect(page.getByRole('status')).toContainText(/Looking|Hold your gift/, { timeout: 15_000 });
    // The camera is looking and has sent its first frame (answered "busy, later"): the state it stays in.
    await firstFrame;
    const endless = await page.evaluate(() =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime === Infinity)
        .map((a) => (a as CSSAnimation).animationName ?? 'animation'),
    );
    expect(endless, 'animations running for good').toEqual([]);
  });

  test('nothing on the demo camera keeps moving either', async ({ page }) => {
    // The demo's photo is never answered here, so the camera stays in its looking state while we look at it.
    await page.route('**/api/demo/scan/**', () => undefined);
    await page.goto(paths.demoScan.href('birthday'));
    await expect(page.getByRole('heading', { name: 'Scan the demo gift' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /Looking for the gift|Fill the frame/ })).toBeVisible({ timeout: 15_000 });
    const endless = await page.evaluate(() =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime === Infinity)
        .map((a) => (a as CSSAnimation).animationName ?? 'animation'),
    );
    expect(endless, 'animations running for good').toEqual([]);
  });
});
