import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';

// The landing page, the sender wizard's first step, the recipient's /scan screen and one blog article, checked
// with axe-core's full rule set against whatever those screens render today.
const SCREENS = [
  { path: paths.home.href(), ready: /Put your voice inside every gift/ },
  { path: paths.send.href(), ready: 'Start Your Gift Journey' },
  { path: paths.scan.href(), ready: null },
  { path: paths.blogArticle.href('what-to-say-in-a-gift-message'), ready: /What to say in a gift message/ },
] as const;

for (const screen of SCREENS) {
  test(`axe finds no violations on ${screen.path}`, async ({ page }) => {
    await page.goto(screen.path);
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    if (screen.ready) await expect(page.getByRole('heading', { level: 1, name: screen.ready })).toBeVisible();
    else await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
}

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('the mobile menu closes on Escape and focus goes back to its button', async ({ page }) => {
    await page.goto(paths.faq.href());
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menu = page.locator('#site-menu');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });
});

test('the share page’s card is a named region, not a dialog that traps nothing', async ({ page, context, paidGift }) => {
  const gift = await paidGift({ message: { kind: 'text', text: 'Hello' } });
  await context.addCookies(gift.senderCookies);
  await page.goto(paths.share.href(gift.giftId));
  await expect(page.getByRole('region', { name: 'Your Message is Ready!' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
