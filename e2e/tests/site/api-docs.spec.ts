import { expect, test } from '../../support/fixtures.ts';

// The browsable API reference renders under the server's Content-Security-Policy (a violation is a console error,
// which fails the test), and lists the calls from the generated OpenAPI document.
test('the API reference at /api/docs renders every group of calls', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /GiftLens API/ })).toBeVisible();
  for (const group of ['deliveries', 'my gifts', 'recipient', 'payments']) {
    await expect(page.getByRole('heading', { name: group, exact: true })).toBeVisible();
  }
  await expect(page.getByText('/api/scheduled-messages/send-now')).toBeVisible();
});
