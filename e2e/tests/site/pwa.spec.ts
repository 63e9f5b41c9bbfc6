import { texts } from '@giftlens/contract/texts';
import type { Page } from '@playwright/test';
import { expect, test } from '../../support/fixtures.ts';
import { paths } from '../../support/paths.ts';

/** Fires the browser's install event the way Chromium does, with a prompt() the test can observe. */
async function offerInstall(page: Page): Promise<void> {
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt: () => Promise<void>;
      userChoice: Promise<{ outcome: string }>;
    };
    event.prompt = () => {
      (window as unknown as { promptCalls: number }).promptCalls =
        ((window as unknown as { promptCalls?: number }).promptCalls ?? 0) + 1;
      return Promise.resolve();
    };
    event.userChoice = Promise.resolve({ outcome: 'dismissed' });
    window.dispatchEvent(event);
  });
}

/** Waits until a service worker controls the page (the first visit installs it; a reload puts it in control). */
async function controlledBy(page: Page): Promise<string> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).not.toBeNull();
  return page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
}

test.describe('install prompt', () => {
  test('hides itself after 10 seconds, and Later is remembered for the session', async ({ page }) => {
    await page.clock.install();
    await page.goto(paths.howItWorks.href());
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    const prompt = page.getByRole('complementary', { name: texts.pwa.addToHomeScreen });

    await offerInstall(page);
    await expect(prompt).toBeVisible();
    await page.clock.fastForward(9_000);
    await expect(prompt).toBeVisible();
    await page.clock.fastForward(1_500);
    await expect(prompt).toBeHidden();

    // Auto-hiding is not a refusal: the next offer shows it again.
    await offerInstall(page);
    await expect(prompt).toBeVisible();
    await prompt.getByRole('button', { name: 'Later' }).click();
    await expect(prompt).toBeHidden();
    expect(await page.evaluate(() => sessionStorage.getItem('installPromptDismissed'))).toBe('true');

    await offerInstall(page);
    await page.clock.fastForward(500);
    await expect(prompt).toBeHidden();
    await page.reload();
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await offerInstall(page);
    await page.clock.fastForward(500);
    await expect(prompt).toBeHidden();
  });

  test('Add hands over to the browser prompt', async ({ page }) => {
    await page.goto(paths.faq.href());
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await offerInstall(page);
    const prompt = page.getByRole('complementary', { name: texts.pwa.addToHomeScreen });
    await prompt.getByRole('button', { name: texts.pwa.addToHomeScreenAction, exact: true }).click();
    await expect(prompt).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { promptCalls?: number }).promptCalls)).toBe(1);
  });
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('the offer to add GiftLens to the home screen reads in a few lines and never says "install"', async ({ page }) => {
    await page.goto(paths.faq.href());
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await offerInstall(page);
    const prompt = page.getByRole('complementary', { name: texts.pwa.addToHomeScreen });
    await expect(prompt).toBeVisible();
    // The hero says "no app to install": the offer is worded as adding to the home screen.
    await expect(prompt).not.toContainText(/install/i);
    // Lines of words (the two paragraphs), counted from their rendered line boxes: 5 before, when the buttons shared
    // the row with them.
    const lines = await prompt.locator('p').evaluateAll((ps) =>
      ps.reduce((sum, p) => sum + Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)), 0),
    );
    expect(lines, 'lines of words in the offer').toBeLessThanOrEqual(3);
  });
});

test('offline banner appears when the connection drops and goes when it returns', async ({ page, context }) => {
  await page.goto(paths.faq.href());
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
  // Let the service worker finish registering first: its script cannot be fetched offline.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const banner = page.getByText("You're offline - Some features may be limited");
  await expect(banner).toBeHidden();
  await context.setOffline(true);
  await expect(banner).toBeVisible();
  await context.setOffline(false);
  await expect(banner).toBeHidden();
});

test('the site shell opens offline after a first visit', async ({ page, context }) => {
  await page.goto(paths.home.href());
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
  await controlledBy(page);

  await context.setOffline(true);
  // A page never visited: the worker answers the navigation with the cached shell and the precached chunk.
  await page.goto(paths.faq.href());
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeVisible();
  await expect(page.getByText("You're offline - Some features may be limited")).toBeVisible();
  await page.goto(paths.home.href());
  await expect(page.getByRole('heading', { level: 1, name: /Put your voice inside every gift/ })).toBeVisible();
  await context.setOffline(false);
});

test('the update banner sends skip-waiting to the waiting worker and reloads once', async ({ page }) => {
  // The app registers /sw.js after the page's load event (workbox-window, imported then): a registration of the next
  // version made before that call completes would be turned back to /sw.js by it. Each page counts its own
  // registrations that completed, so the test waits for the app's.
  await page.addInitScript(() => {
    const proto = ServiceWorkerContainer.prototype;
    type Register = (this: ServiceWorkerContainer, ...args: Parameters<ServiceWorkerContainer['register']>) => Promise<ServiceWorkerRegistration>;
    const register: Register = Reflect.get(proto, 'register');
    proto.register = function (this: ServiceWorkerContainer, ...args: Parameters<typeof register>) {
      const done = register.apply(this, args);
      void done.then(() => document.documentElement.setAttribute('data-sw-registered', ''));
      return done;
    };
  });
  await page.goto(paths.home.href());
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
  const current = await controlledBy(page);
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
  await page.locator('html[data-sw-registered]').waitFor({ state: 'attached' });

  // A new version of the worker is published: a different script URL makes the browser install it next to the
  // active one, where it waits (the app never skips waiting on its own).
  const next = `${current}?v=next`;
  await page.evaluate(async (url) => {
    await navigator.serviceWorker.register(url, { scope: '/' });
  }, next);
  const banner = page.getByRole('status').filter({ hasText: 'A new version of GiftLens is ready.' });
  await expect(banner).toBeVisible();
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.scriptURL)).toBe(next);

  let loads = 0;
  page.on('load', () => loads++);
  await banner.getByRole('button', { name: 'Update now' }).click();
  await expect.poll(() => loads, { timeout: 10_000 }).toBe(1);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toBe(next);
  // One reload, not a loop. The reloaded page has started and registered its own /sw.js, which the browser
  // installs beside the active ?v=next and the page offers as the next version: past every moment a loop would
  // reload again (the start, the new controller, the registration), and it loaded once.
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
  await expect(banner).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(next);
  expect(loads).toBe(1);
});
