import { expect, type Locator, type Page } from '@playwright/test';

/** Presses Tab (Shift+Tab with `back`) until `target` has focus, as a keyboard user would; fails after `limit`. */
export async function tabTo(page: Page, target: Locator, { limit = 60, back = false } = {}): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target, `reached with ${back ? 'Shift+Tab' : 'Tab'} within ${limit} presses`).toBeFocused({ timeout: 1 });
}

/** The keyboard focus is visible on `shown` (an outline or a ring drawn on it), as WCAG 2.4.7 asks. */
export async function expectVisibleFocus(shown: Locator): Promise<void> {
  await expect
    .poll(
      () =>
        shown.evaluate((el) => {
          const s = getComputedStyle(el);
          return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
        }),
      { message: 'a focus outline is drawn', timeout: 2_000 },
    )
    .toBe(true);
}
