import { texts } from '@giftlens/contract/texts';
import { COVER_001, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { expectVisibleFocus, tabTo } from '../../support/keyboard.ts';
import { waitForCode } from '../../support/mailbox.ts';
import { atRoute, paths } from '../../support/paths.ts';

// The sender's whole journey with the keyboard alone (Tab, Enter, Space, typing): where focus lands after each
// screen changes, that it is visible, and that errors are tied to their fields. axe checks every screen on the way
// (the fixtures).
test('keyboard only: a sender signs in, describes the gift, writes a message, pays and schedules the link', async ({
  page,
  mailDir,
}) => {
  test.slow();
  // The page's clock runs with real time until the end, where the test moves it past the jump home.
  await page.clock.install();
  const email = uniqueEmail('keys');
  await page.goto(paths.send.href());
  await expect(page.getByRole('heading', { name: 'Start Your Gift Journey' })).toBeVisible();

  // The Email choice shows where the focus is.
  const emailChoice = page.getByRole('radio', { name: 'Email' });
  await tabTo(page, emailChoice);
  await expectVisibleFocus(page.locator('label').filter({ has: emailChoice }));
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email address')).toBeFocused();
  await page.keyboard.type(email);
  const since = Date.now();
  await page.keyboard.press('Enter');

  // A wrong code: the boxes are cleared and the first one has focus again.
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  const code = await waitForCode(mailDir, email, since);
  await expect(page.getByLabel('Digit 1 of 6')).toBeFocused();
  const wrong = code === '000000' ? '111111' : '000000';
  await page.keyboard.type(wrong);
  await expect(page.getByRole('alert').filter({ hasText: texts.sender.invalidCode })).toBeVisible();
  await expect(page.getByLabel('Digit 1 of 6')).toBeFocused();
  await page.keyboard.type(code);

  // Each new step: focus on its heading, or on the field the step focuses itself.
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  await expect(page.locator('body')).not.toBeFocused();
  await tabTo(page, page.getByLabel('First name'));
  await page.keyboard.type('Asha');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Add Gift Details' })).toBeFocused();

  // Details: no photo yet, so the photo's error is tied to its field.
  await tabTo(page, page.getByLabel('Occasion'));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Ravi');
  await page.keyboard.press('Tab');
  await page.keyboard.type('ravi@example.com');
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  const photoInput = page.locator('input[type="file"][accept^="image"]');
  const error = page.getByText(texts.sender.giftImageRequired, { exact: true });
  await expect(error).toBeVisible();
  await expect(photoInput).toHaveAttribute('aria-invalid', 'true');
  const errorId = await error.getAttribute('id');
  expect(errorId, 'the error has an id to be referred to').toBeTruthy();
  await expect(photoInput).toHaveAttribute('aria-describedby', new RegExp(`(^| )${errorId}( |$)`));

  // The drop zone shows the focus of its (visually hidden) file input; Space opens the file chooser.
  await tabTo(page, photoInput, { back: true });
  await expectVisibleFocus(page.locator(`label[for="${await photoInput.getAttribute('id')}"]`).last());
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles(COVER_001);
  await expect(page.getByRole('img', { name: 'Gift preview' })).toBeVisible();
  await expect(photoInput).not.toHaveAttribute('aria-invalid', 'true');
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');

  // The message step: a text message.
  const messageHeading = page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Add Gift Details' });
  await expect(messageHeading).toBeFocused({ timeout: 15_000 });
  await tabTo(page, page.getByRole('tab', { name: /Video Message/ }));
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: /Text Message/ })).toHaveAttribute('aria-selected', 'true');
  await tabTo(page, page.getByLabel('Your message'));
  await page.keyboard.type('Happy birthday, Ravi!');
  await tabTo(page, page.getByRole('button', { name: 'Continue to Checkout' }));
  await page.keyboard.press('Enter');

  // Checkout: focus on its heading; pay with the test checkout.
  await expect(page).toHaveURL(atRoute(paths.checkout));
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeFocused();
  const pay = page.getByRole('button', { name: /^Pay/ });
  await expect(pay).toBeEnabled({ timeout: 30_000 });
  await tabTo(page, pay);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(atRoute(paths.share), { timeout: 15_000 });

  // Scheduling: the confirmation is announced before the jump home, and the sender may stay.
  await expect(page.getByRole('heading', { name: 'Your Message is Ready!' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Share Link Later' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Schedule Delivery' }));
  await page.keyboard.press('Enter');
  const stay = page.getByRole('button', { name: texts.sender.stayOnThisPage });
  await expect(stay).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: /^Delivery scheduled for .+ at .+!/ })).toContainText(
    texts.sender.leavingAfterSchedule,
  );
  const shareUrl = page.url();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: texts.sender.stayOnThisPage })).toBeHidden();
  // Past the moment of the jump home (2 s) on the page's clock: staying cancelled it.
  await page.clock.runFor(2_500);
  expect(page.url()).toBe(shareUrl);
  await expect(page.getByRole('status').filter({ hasText: /^Delivery scheduled for/ })).toBeFocused();
});

test('after scheduling, the jump home still comes 2 s later for a sender who does not choose to stay', async ({
  page,
  context,
  paidGift,
}) => {
  const gift = await paidGift({ message: { kind: 'text', text: 'Hello' } });
  await context.addCookies(gift.senderCookies);
  await page.clock.install();
  await page.goto(paths.share.href(gift.giftId));
  await page.getByRole('button', { name: 'Share Link Later' }).click();
  // The page's clock stops here (a second on), so only the test moves it on: not before 2 s, and then at once.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.getByRole('button', { name: 'Schedule Delivery' }).click();
  await expect(page.getByRole('button', { name: texts.sender.stayOnThisPage })).toBeVisible();
  const shareUrl = page.url();
  await page.clock.runFor(1_900);
  expect(page.url()).toBe(shareUrl);
  await page.clock.runFor(200);
  await expect(page).toHaveURL(paths.home.href());
  // Time runs again for the checks after the test (axe waits for the page to settle).
  await page.clock.resume();
});
