import { expect, test } from '../../support/fixtures.ts';
import { expectWrapsBetweenParts } from '../../support/layout.ts';
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
