import { expect, test } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';

// A full page load of a screen whose code is loaded on demand: the router must start with that screen's code in hand.
// Started without it, React Router renders nothing for the first pass and warns "No `HydrateFallback` element
// provided to render during initial hydration" (it did, on every full page load but /).
const SCREENS = [
  { url: paths.send.href(), heading: 'Start Your Gift Journey' },
  { url: paths.scan.href(), heading: "Let's begin!" },
  { url: paths.pricing.href(), heading: /pricing|plans/i },
  { url: paths.privacy.href(), heading: /privacy/i },
];

test('a full page load of a lazily loaded screen logs no warning (React Router starts with its code loaded)', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(`${page.url()}: ${msg.text()}`);
  });
  for (const screen of SCREENS) {
    await page.goto(screen.url);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading }).first()).toBeVisible();
  }
  expect(warnings).toEqual([]);
});
