import { expect, test } from '../../support/fixtures.ts';
import { expectWrapsBetweenParts, renderedLines } from '../../support/layout.ts';
import { paths } from '../../support/paths.ts';

// The sender's screens on a 360x740 phone.
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

test('a long e-mail address on the sender’s code screen wraps after the @ or before a dot, never inside a word', async ({
  page,
}) => {
  const email = `ravindra.krishnamurthy-subramanian.${Date.now()}@example-mail-provider.co.in`;
  await page.goto(paths.send.href());
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  await expectWrapsBetweenParts(page.getByText(email, { exact: true }));
});

test('an address too long for one line breaks after its @, not at a dot, on the sender’s code screen', async ({ page }) => {
  // 35 characters: wider than the card's line at 360 px, while each half fits on a line of its own.
  const local = `asha.verma.${Date.now()}`;
  const email = `${local}@example.com`;
  await page.goto(paths.send.href());
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  expect(await renderedLines(page.getByText(email, { exact: true }))).toEqual([`${local}@`, 'example.com']);
});

test('checkout shows the recipient’s whole name, wrapped rather than cut', async ({ page, context, draftGift }) => {
  const recipientName = 'Bob Recipient Alexander-Fitzgerald';
  const gift = await draftGift({ recipientName });
  await context.addCookies(gift.senderCookies);
  await page.goto(paths.checkout.href(gift.giftId));
  const name = page.getByText(recipientName, { exact: true });
  await expect(name).toBeVisible();
  // Nothing of it is hidden: its box holds all of its text.
  const cut = await name.evaluate((el) => el.scrollWidth > el.clientWidth || getComputedStyle(el).textOverflow === 'ellipsis');
  expect(cut, 'the name is cut with an ellipsis').toBe(false);
  expect((await renderedLines(name)).join(' ').replace(/- /g, '-')).toBe(recipientName);
});
