import type { Page } from '@playwright/test';
import { expect, test as base } from '../../support/fixtures.ts';
import { API, paths } from '../../support/paths.ts';

/**
 * Every country source fails here on purpose, so the browser logs the failed /api/geo request: that one
 * message is expected. Anything else logged as an error still fails the test.
 */
const test = base.extend({
  // Overrides the project's console check (and stays automatic, as the fixture it replaces).
  failOnConsoleError: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const fromGeo = msg.location().url.includes(API.geo);
      if (!fromGeo && !/status of 4\d\d/.test(msg.text())) errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await use();
    expect(errors, 'console errors during the test').toEqual([]);
  },
});

/** The page's call for the visitor's country. */
const isGeo = (url: URL) => url.pathname === API.geo;

interface StoredCountry {
  countryCode: string;
  source: string;
  timestamp: number;
  expiresAt: number;
}

/**
 * The country is named with its code in a badge, not a flag emoji: without an emoji font (common on Linux and
 * older Windows) regional-indicator letters render as empty boxes.
 */
async function expectCountry(page: Page, code: string, name: string) {
  const meta = page.getByText(`Prices for ${code} ${name}`);
  await expect(meta).toBeVisible();
  expect(await meta.textContent()).not.toMatch(/[\u{1F1E6}-\u{1F1FF}\u{1F3F3}]/u);
  await expect(meta.getByText(code, { exact: true })).toBeVisible();
}

test.describe('country detection when every source fails', () => {
  test.describe('with a regional browser language', () => {
    test.use({ locale: 'fr-FR' });

    test('falls back to the browser locale and keeps it about 6 hours', async ({ page }) => {
      await page.route(isGeo, (route) => route.abort('failed'));
      await page.goto(paths.pricing.href());
      await expectCountry(page, 'FR', 'France');
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('countryData') ?? 'null') as unknown);
      const s = stored as StoredCountry;
      expect(s).toEqual({ countryCode: 'FR', source: 'browser-locale', timestamp: expect.any(Number), expiresAt: expect.any(Number) });
      expect(s.expiresAt - s.timestamp).toBe(6 * 60 * 60 * 1000);
      expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('sessionCountryData') ?? 'null') as unknown)).toMatchObject({
        countryCode: 'FR',
        source: 'browser-locale',
      });
      // France pays in US dollars: the server's price list for every country but India.
      await expect(page.getByText('$1.99')).toBeVisible();
    });
  });

  test.describe('with a language that names no region', () => {
    test.use({ locale: 'en' });

    test('falls back to the United States and caches nothing', async ({ page }) => {
      await page.route(isGeo, (route) => route.fulfill({ status: 503, body: '' }));
      await page.goto(paths.pricing.href());
      await expectCountry(page, 'US', 'United States');
      expect(await page.evaluate(() => localStorage.getItem('countryData'))).toBeNull();
    });
  });

  test('a fresh cached country is used without asking the server', async ({ page }) => {
    let asked = 0;
    await page.route(isGeo, (route) => {
      asked++;
      return route.abort('failed');
    });
    // An entry as an earlier version wrote it, with the calling code it no longer keeps.
    await page.addInitScript(() => {
      const now = Date.now();
      localStorage.setItem(
        'countryData',
        JSON.stringify({ countryCode: 'IN', callingCode: '91', source: 'giftlens-geo', timestamp: now, expiresAt: now + 864e5 }),
      );
    });
    await page.goto(paths.pricing.href());
    await expectCountry(page, 'IN', 'India');
    await expect(page.getByText('₹99')).toBeVisible();
    expect(asked).toBe(0);
  });
});
