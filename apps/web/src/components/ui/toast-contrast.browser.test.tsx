import { toast } from 'sonner';
import { describe, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import '../../styles.css';
import { LazyToaster } from './lazy-toaster.tsx';

/** WCAG's relative luminance of an `rgb(…)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

const KINDS = ['success', 'info', 'warning', 'error'] as const;

describe('toasts (Chromium, the app’s stylesheet)', () => {
  test('every kind of toast has text at 4.5:1 or more on its background', async () => {
    await render(<LazyToaster />);
    window.dispatchEvent(new Event('pointerdown'));
    // sonner loads on the first interaction (or at once off the landing page): wait for its outlet.
    await expect.poll(() => document.querySelector('section[aria-label^="Notifications"]')).not.toBeNull();
    for (const kind of KINDS) toast[kind](`A ${kind} toast`, { duration: 60_000 });
    const ratios: Record<string, number> = {};
    for (const kind of KINDS) {
      const shown = page.getByText(`A ${kind} toast`);
      await expect.element(shown).toBeVisible();
      const el = shown.element();
      const box = el.closest('[data-sonner-toast]')!;
      ratios[kind] = Math.round(contrast(getComputedStyle(el).color, getComputedStyle(box).backgroundColor) * 100) / 100;
    }
    for (const kind of KINDS) expect(ratios[kind], `${kind} toast: ${JSON.stringify(ratios)}`).toBeGreaterThanOrEqual(4.5);
  });
});
