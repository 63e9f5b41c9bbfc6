import type { Page } from '@playwright/test';
import { COVER_001, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { waitForCode } from '../../support/mailbox.ts';
import { smallVideo } from '../../support/media.ts';
import { atRoute, paths, routeParams } from '../../support/paths.ts';
import { signInAgainWithCode } from '../../support/sender-sign-in.ts';

/** The wizard's e-mail step, typed in capitals: the field lowercases it as typed. */
async function enterEmail(page: Page, email: string): Promise<void> {
  await page.goto(paths.send.href());
  await expect(page.getByRole('heading', { name: 'Start Your Gift Journey' })).toBeVisible();
  await page.getByLabel('Email address').fill(email.toUpperCase());
  await expect(page.getByLabel('Email address')).toHaveValue(email);
}

async function verifyEmail(page: Page, mailDir: string, email: string): Promise<void> {
  await enterEmail(page, email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Verification code sent to your email!')).toBeVisible();

  // The code arrives through a real SMTP server.
  const code = await waitForCode(mailDir, email, since);
  await page.getByLabel('Digit 1 of 6').focus();
  // Typing moves from box to box; the sixth digit submits the code.
  await page.keyboard.type(code);
}

test('a new sender goes from /send to the share page with a photo, a video and a test payment', async ({
  page,
  mailDir,
}) => {
  const email = uniqueEmail('sender');
  await verifyEmail(page, mailDir, email);

  // New users give their first name.
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  await page.getByLabel('First name').fill('Asha');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Plans: the popular one is preselected; the progress indicator shows step 1 of 3.
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
  const progress = page.getByRole('navigation', { name: 'Progress' });
  await expect(progress).toContainText('Choose Plan');
  await expect(progress).toContainText('Add Gift Details');
  await expect(progress).toContainText('Upload Message');
  await expect(page.getByRole('radio', { name: /Premium plan/ })).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Premium plan selected!')).toBeVisible();

  // Gift details with a real gift photo.
  await expect(page.getByRole('heading', { name: 'Add Gift Details' })).toBeVisible();
  await page.getByLabel('Occasion').selectOption('birthday');
  await page.getByLabel('Recipient name').fill('Ravi');
  await page.getByLabel('Recipient email').fill('ravi@example.com');
  await page.locator('input[type="file"][accept^="image"]').setInputFiles(COVER_001);
  await expect(page.getByRole('img', { name: /preview/i })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Gift created successfully!')).toBeVisible();

  // Message: upload a real small video, see the preview, continue to checkout.
  await expect(page.getByRole('tab', { name: /Video/ })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Upload video file').setInputFiles(smallVideo());
  await expect(page.locator('video').first()).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Checkout' }).click();

  // Checkout in test mode: the gift, the plan and a Pay button.
  await expect(page).toHaveURL(atRoute(paths.checkout));
  const giftId = routeParams(page, paths.checkout).giftId!;
  expect(giftId).toMatch(/^[0-9a-f]{32}$/);
  await expect(page.getByText(/test mode/i).first()).toBeVisible();
  await expect(page.getByText('Ravi').first()).toBeVisible();
  await expect(page.getByText('$1.99').first()).toBeVisible();
  const pay = page.getByRole('button', { name: /^Pay/ });
  await expect(pay).toBeEnabled({ timeout: 30_000 });
  await pay.click();

  // Payment verification, then the share page after 1.5 s.
  await expect(page).toHaveURL(atRoute(paths.paymentSuccess));
  await expect(page.getByText('Payment verified successfully!')).toBeVisible();
  await expect(page).toHaveURL(paths.share.href(giftId));
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toBeVisible();
  const origin = new URL(page.url()).origin;
  await expect(page.getByRole('textbox', { name: /link/i })).toHaveValue(`${origin}${paths.shareLink.href(giftId)}`);

  // Share later: the recipient e-mail is filled in, the default time is an hour from now.
  await page.getByRole('button', { name: 'Share Link Later' }).click();
  await expect(page.getByLabel('Recipient email')).toHaveValue('ravi@example.com');
  await expect(page.getByText(/Scheduled for/)).toBeVisible();
  await page.getByRole('button', { name: 'Schedule Delivery' }).click();
  // The toast and the page's own confirmation (announced before the jump home) say it.
  await expect(page.getByText(/^Delivery scheduled for .+ at .+!$/).first()).toBeVisible();
  await expect(page).toHaveURL(paths.home.href());

  // The link opens the recipient's greeting.
  await page.goto(paths.shareLink.href(giftId));
  await expect(page.getByRole('heading', { name: 'Hi Ravi!' })).toBeVisible();
});

test('a returning sender is welcomed back and goes straight to the plans', async ({ page, mailDir, returningSender }) => {
  // They signed in on another device moments ago: the page waits out the code's resend cooldown with them.
  test.slow();
  await enterEmail(page, returningSender.email);
  await signInAgainWithCode(page, mailDir, returningSender.email);
  await expect(page.getByText(`Welcome back, ${returningSender.firstName}!`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveCount(0);
});
