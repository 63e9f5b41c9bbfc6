import type { Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';

/** The landing page's How It Works section. */
const HOW_IT_WORKS = `${paths.home.href()}#how-it-works`;

/** How far (in px) the section's top is from its place right below the sticky header (its scroll margin). */
const offsetFromPlace = (page: Page) =>
  page.locator('#how-it-works').evaluate((el) => {
    const margin = Number.parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
    return Math.abs(Math.round(el.getBoundingClientRect().top - margin));
  });

async function expectSectionInPlace(page: Page): Promise<void> {
  await expect(page).toHaveURL(HOW_IT_WORKS);
  await expect.poll(() => offsetFromPlace(page), { message: 'How It Works is brought to the top' }).toBeLessThanOrEqual(1);
  expect(await page.evaluate(() => window.scrollY), 'the page scrolled').toBeGreaterThan(0);
  // And it stays there once everything the landing page loads has arrived.
  await page.waitForLoadState('networkidle');
  expect(await offsetFromPlace(page), 'How It Works is still at the top').toBeLessThanOrEqual(1);
}

// Opened fresh on another page, so the landing page's lower half has not been loaded yet.
for (const start of [paths.blog.href(), paths.pricing.href(), paths.send.href()]) {
  test(`How It Works in the navigation bar of ${start} scrolls to the section (1280 px)`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(start);
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'How It Works' }).click();
    await expectSectionInPlace(page);
  });

  test(`How It Works in the menu of ${start} scrolls to the section (360 px)`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(start);
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#site-menu').getByRole('link', { name: 'How It Works' }).click();
    await expectSectionInPlace(page);
  });
}
