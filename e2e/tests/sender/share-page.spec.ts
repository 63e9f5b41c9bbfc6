import { texts } from '@giftlens/contract/texts';
import { expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';
import { signInAgainWithCode, signInWithCode } from '../../support/sender-sign-in.ts';

const UNKNOWN_GIFT = '0'.repeat(32);

test('without the sender’s session the share page asks for the e-mail code first, then shows the gift', async ({
  page,
  mailDir,
  paidGift,
}) => {
  // The sender made the gift on another device a moment ago: this browser has no session, and the page waits
  // out the code's resend cooldown with them.
  test.slow();
  const gift = await paidGift({ message: { kind: 'text', text: 'Hello' } });

  await page.goto(paths.share.href(gift.giftId));
  await expect(page.getByRole('heading', { name: 'Share your gift' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: /link/i })).toHaveCount(0);

  await signInAgainWithCode(page, mailDir, gift.senderEmail);
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toBeVisible();
  const origin = new URL(page.url()).origin;
  await expect(page.getByRole('textbox', { name: /link/i })).toHaveValue(`${origin}${paths.shareLink.href(gift.giftId)}`);
  await expect(page).toHaveURL(paths.share.href(gift.giftId));
});

test('a gift that cannot be found (unknown, or another sender’s) is an error and a move to the home page', async ({
  page,
  mailDir,
  paidGift,
}) => {
  const someoneElses = await paidGift({ message: { kind: 'text', text: 'Hello' } });

  // No session: who is asking comes first.
  await page.goto(paths.share.href(UNKNOWN_GIFT));
  await expect(page.getByRole('heading', { name: 'Share your gift' })).toBeVisible();
  await signInWithCode(page, mailDir, uniqueEmail('stranger'));
  await expect(page.getByText(texts.sender.giftNotFound, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(paths.home.href());
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toHaveCount(0);

  // Signed in now, as someone else than its sender.
  await page.goto(paths.share.href(someoneElses.giftId));
  await expect(page.getByText(texts.sender.giftNotFound, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(paths.home.href());
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toHaveCount(0);
});

test('a gift not paid yet goes to its checkout instead', async ({ page, context, draftGift }) => {
  const draft = await draftGift();
  await context.addCookies(draft.senderCookies);
  await page.goto(paths.share.href(draft.giftId));
  await expect(page).toHaveURL(paths.checkout.href(draft.giftId));
  await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
});
