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
