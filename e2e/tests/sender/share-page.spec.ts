import { resolve } from 'node:path';
import { texts } from '@giftlens/contract/texts';
import { expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { createDraftGift, createPaidGift } from '../../support/gifts.ts';
import { GIFT_PHOTOS_DIR } from '../../support/paths.ts';
import { endCodeCooldown } from '../../support/seed.ts';
import { signInWithCode } from '../../support/sender-sign-in.ts';

const REFERENCE = resolve(GIFT_PHOTOS_DIR, 'covers/reference/001.jpg');
const UNKNOWN_GIFT = '0'.repeat(32);

test('without the sender’s session the share page asks for the e-mail code first, then shows the gift', async ({
  page,
  baseURL,
  mailDir,
}) => {
  const gift = await createPaidGift({
    baseURL: baseURL!,
    mailDir,
    photo: REFERENCE,
    planId: 'premium_us',
    message: { kind: 'text', text: 'Hello' },
  });
  // The sender comes back later, in another browser.
  endCodeCooldown(gift.senderEmail);

  await page.goto(`/share/${gift.giftId}`);
  await expect(page.getByRole('heading', { name: 'Share your gift' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: /link/i })).toHaveCount(0);

  await signInWithCode(page, mailDir, gift.senderEmail);
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toBeVisible();
  const origin = new URL(page.url()).origin;
  await expect(page.getByRole('textbox', { name: /link/i })).toHaveValue(`${origin}/sharelink/${gift.giftId}`);
  await expect(page).toHaveURL(new RegExp(`/share/${gift.giftId}$`));
});

test('a gift that cannot be found (unknown, or another sender’s) is an error and a move to the home page', async ({
  page,
  baseURL,
  mailDir,
}) => {
  const someoneElses = await createPaidGift({
    baseURL: baseURL!,
    mailDir,
    photo: REFERENCE,
    planId: 'premium_us',
    message: { kind: 'text', text: 'Hello' },
  });

  // No session: who is asking comes first.
  await page.goto(`/share/${UNKNOWN_GIFT}`);
  await expect(page.getByRole('heading', { name: 'Share your gift' })).toBeVisible();
  await signInWithCode(page, mailDir, uniqueEmail('stranger'));
  await expect(page.getByText(texts.sender.giftNotFound, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toHaveCount(0);

  // Signed in now, as someone else than its sender.
  await page.goto(`/share/${someoneElses.giftId}`);
  await expect(page.getByText(texts.sender.giftNotFound, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toHaveCount(0);
});

test('a gift not paid yet goes to its checkout instead', async ({ page, context, baseURL, mailDir }) => {
  const draft = await createDraftGift({ baseURL: baseURL!, mailDir, photo: REFERENCE, planId: 'premium_us' });
  await context.addCookies(draft.senderCookies);
  await page.goto(`/share/${draft.giftId}`);
  await expect(page).toHaveURL(new RegExp(`/checkout/${draft.giftId}$`));
  await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
});
