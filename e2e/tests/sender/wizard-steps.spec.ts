import { texts } from '@giftlens/contract/texts';
import { COVER_001, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';
import { signInWithCode } from '../../support/sender-sign-in.ts';

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('going Back keeps what was entered: the name, the plan, the gift details and the photo', async ({ page, mailDir }) => {
    await page.goto(paths.send.href());
    await signInWithCode(page, mailDir, uniqueEmail('back'));

    await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
    await page.getByLabel('First name').fill('Asha');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();

    // Back to the name: it is still there, and Continue goes on without typing it again.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByLabel('First name')).toHaveValue('Asha');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
    await expect(page.getByText(texts.sender.firstNameRequired)).toHaveCount(0);

    // A plan other than the preselected one, then the details with a photo.
    await page.getByRole('radio', { name: /Lifetime plan/ }).check({ force: true });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Add Gift Details' })).toBeVisible();
    await page.getByLabel('Occasion').selectOption('birthday');
    await page.getByLabel('Recipient name').fill('Ravi');
    await page.getByLabel('Recipient email').fill('ravi@example.com');
    await page.locator('input[type="file"][accept^="image"]').setInputFiles(COVER_001);
    await expect(page.getByRole('img', { name: 'Gift preview' })).toBeVisible();

    // Back to the plans and forward again: the plan, the fields and the photo are as they were.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('radio', { name: /Lifetime plan/ })).toBeChecked();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Occasion')).toHaveValue('birthday');
    await expect(page.getByLabel('Recipient name')).toHaveValue('Ravi');
    await expect(page.getByLabel('Recipient email')).toHaveValue('ravi@example.com');
    await expect(page.getByRole('img', { name: 'Gift preview' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Gift created successfully!')).toBeVisible();
    await expect(page.getByRole('tab', { name: /Video/ })).toBeVisible();
  });
});

test('the gift details say what is missing in the contract’s words, never a schema’s', async ({ page, mailDir }) => {
  await page.goto(paths.send.href());
  await signInWithCode(page, mailDir, uniqueEmail('texts'));
  await page.getByLabel('First name').fill('Asha');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Add Gift Details' })).toBeVisible();

  // Nothing filled in: each field says what it needs.
  await page.getByRole('button', { name: 'Continue' }).click();
  for (const text of [texts.sender.occasionRequired, texts.sender.recipientNameRequired, texts.sender.recipientContactRequired, texts.sender.giftImageRequired]) {
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }

  // Everything but the photo: the photo's text, not "Invalid input: expected array, received undefined".
  await page.getByLabel('Occasion').selectOption('birthday');
  await page.getByLabel('Recipient name').fill('Ravi');
  await page.getByLabel('Recipient email').fill('ravi@example.com');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(texts.sender.giftImageRequired, { exact: true })).toBeVisible();
  await expect(page.getByText(/invalid input|expected .+ received/i)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Add Gift Details' })).toBeVisible();
});
