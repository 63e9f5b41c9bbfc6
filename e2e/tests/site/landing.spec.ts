import type { Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';

/** The landing page arrives prerendered; wait until the app has hydrated it. */
async function openLanding(page: Page): Promise<void> {
  await page.goto(paths.home.href());
  await expect(page.getByRole('heading', { level: 1, name: /Put your voice inside every gift/ })).toBeVisible();
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
}

test.describe('landing page', () => {
  test('FAQ: one answer open at a time, a click toggles it', async ({ page }) => {
    await openLanding(page);
    const faq = page.locator('section', { has: page.getByRole('heading', { name: 'Frequently asked questions' }) });
    const items = faq.locator('details');
    await expect(items).toHaveCount(5);
    const summaries = faq.locator('summary');
    await expect(summaries).toHaveText([
      'How does GiftLens make a gift more memorable?',
      'Why is it better than a QR code?',
      'How can I personalise my message?',
      'Does my recipient need to install an app?',
      'Is my message private and encrypted?',
    ]);
    const openCount = () => items.evaluateAll((ds) => ds.filter((d) => (d as HTMLDetailsElement).open).length);
    expect(await openCount()).toBe(0);

    await summaries.nth(1).click();
    await expect(items.nth(1)).toHaveAttribute('open', '');
    await expect(faq.getByText(/recognises the gift itself/)).toBeVisible();

    await summaries.nth(3).click();
    await expect(items.nth(3)).toHaveAttribute('open', '');
    await expect(items.nth(1)).not.toHaveAttribute('open');
    expect(await openCount()).toBe(1);

    // Clicking the open question closes it.
    await summaries.nth(3).click();
    await expect(items.nth(3)).not.toHaveAttribute('open');
    expect(await openCount()).toBe(0);
  });

  test('the links of the spec are on the page', async ({ page }) => {
    await openLanding(page);
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Get Started' }).first()).toHaveAttribute('href', paths.send.href());
    await expect(main.getByRole('link', { name: 'Try Demo' })).toHaveAttribute('href', paths.demo.href());
    await expect(main.getByRole('link', { name: /Gift Ideas/ })).toHaveAttribute('href', paths.giftIdeas.href());
    await expect(main.getByRole('link', { name: /Explore Our Blog/ })).toHaveAttribute('href', paths.blog.href());
    // The chart is a real table: names and numbers are readable without the bars.
    const chart = page.getByRole('table');
    await expect(chart.getByRole('row', { name: /Jewelry 35%/ })).toBeVisible();
    await expect(chart.getByRole('row', { name: /Books 8%/ })).toBeVisible();
  });

  test('How It Works scrolls smoothly to its section, from another page too', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLanding(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'How It Works' }).click();
    await expect(page.locator('#how-it-works')).toBeInViewport();
    expect(new URL(page.url()).pathname).toBe(paths.home.href());

    await nav.getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(paths.pricing.href());
    await nav.getByRole('link', { name: 'How It Works' }).click();
    await expect(page).toHaveURL(`${paths.home.href()}#how-it-works`);
    await expect(page.locator('#how-it-works')).toBeInViewport();
  });

  test('every route change starts at the top of the page', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLanding(page);
    await page.mouse.wheel(0, 5000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    // Back returns to the top too (the browser restores no position while the app runs), and stays there.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('navigation on a small screen', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the toggle menu lists the same links and closes after choosing one', async ({ page }) => {
    await openLanding(page);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menu = page.locator('#site-menu');
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    for (const name of ['How It Works', 'Scan Gift', 'Send Gift', 'Blog', 'For Business', 'Pricing', 'Get Started']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }

    await menu.getByRole('link', { name: 'Blog', exact: true }).click();
    await expect(page).toHaveURL(paths.blog.href());
    await expect(page.getByRole('heading', { level: 1, name: 'The GiftLens blog' })).toBeVisible();
    await expect(menu).toBeHidden();

    // Close without choosing, too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
  });
});

test('an unknown path redirects to / and replaces the history entry', async ({ page }) => {
  await page.goto(paths.blog.href());
  await expect(page.getByRole('heading', { level: 1, name: 'The GiftLens blog' })).toBeVisible();
  // A path no route has.
  await page.goto('/no-such-page/at-all');
  await expect(page).toHaveURL(paths.home.href());
  await expect(page.getByRole('heading', { level: 1, name: /Put your voice inside every gift/ })).toBeVisible();
  // Had the redirect pushed, Back would return to the unknown path (and redirect again to /).
  await page.goBack();
  await expect(page).toHaveURL(paths.blog.href());
});

test('footer: quick links, support, legal, mail links and the current year', async ({ page }) => {
  await page.goto(paths.faq.href());
  const footer = page.getByRole('contentinfo');
  for (const [name, href] of [
    ['Scan Gift', paths.scan.href()],
    ['Send Gift', paths.send.href()],
    ['Blog', paths.blog.href()],
    ['For Business', paths.forBusiness.href()],
    ['Contact Us', paths.contact.href()],
    ['Digital Delivery', paths.shippingDelivery.href()],
    ['Cancellation & Refund', paths.cancellationRefund.href()],
    ['Privacy Policy', paths.privacy.href()],
    ['Terms & Conditions', paths.terms.href()],
  ] as const) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  for (const name of ['Email Support', 'Legal Inquiries', 'Privacy Concerns']) {
    await expect(footer.getByRole('link', { name })).toHaveAttribute('href', /^mailto:support@giftlens\.app/);
  }
  await expect(footer).toContainText(`© ${new Date().getFullYear()} GiftLens`);
});
