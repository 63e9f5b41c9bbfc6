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

/** What one step of a keyboard walk found on the focused element (see `inspectFocus`). */
export interface FocusStop {
  /** The focused element, as `tag#id "name"`; "body" when focus is on nothing. */
  name: string;
  /** Focus is on <body> (or nothing). */
  body: boolean;
  /** Focused, the element or what shows it (its labels, its wrappers, its peer) looks different than blurred. */
  changes: boolean;
  /** What looks different, as `element: blurred → focused`. */
  changed: string[];
  /** The element matches :focus-visible (the browser's own word that the keyboard put it there). */
  focusVisible: boolean;
  /** The sticky or fixed bar (wider than half the window) drawn over the element's top or middle, if any. */
  coveredBy: string | null;
  /** This walk reached the element before (focus went round). */
  again: boolean;
}

/**
 * Runs in the page: describes the focused element. "Looks different" compares the computed outline, box-shadow,
 * border and background of the element (unless visually hidden), its labels, its next sibling (a `peer`) and its two
 * nearest ancestors, while focused and once blurred, with transitions off; a transparent outline or ring, or one the
 * colour of what is behind it, draws nothing. Then the element is focused again (after keyboard use Chromium keeps it
 * :focus-visible).
 */
function inspectFocus(): FocusStop {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body || el === document.documentElement) {
    return { name: 'body', body: true, changes: false, changed: [], focusVisible: false, coveredBy: null, again: false };
  }
  const walk = window as unknown as { __giftlensWalk?: WeakSet<Element> };
  walk.__giftlensWalk ??= new WeakSet();
  const again = walk.__giftlensWalk.has(el);
  walk.__giftlensWalk.add(el);
  const last = window as unknown as { __giftlensWalkLast?: Element };
  last.__giftlensWalkLast = el;
  const label = (e: Element) => {
    const name =
      e.getAttribute('aria-label') ??
      (e as HTMLInputElement).labels?.[0]?.innerText ??
      ((e as HTMLElement).innerText || e.getAttribute('placeholder') || '');
    const text = name.trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${text ? ` "${text}"` : ''}`;
  };
  const tiny = (r: DOMRect) => r.width * r.height < 4;
  // The element itself counts unless it is visually hidden (an sr-only input, whose own ring nobody sees); then
  // what shows it: its labels, its next sibling (a `peer`), its two nearest ancestors.
  const shown = [
    ...new Set(
      [
        tiny(el.getBoundingClientRect()) ? null : el,
        ...Array.from((el as HTMLInputElement).labels ?? []),
        el.nextElementSibling,
        el.parentElement,
        el.parentElement?.parentElement,
      ].filter((e): e is Element => e !== null && e !== undefined),
    ),
  ];
  // Colours as drawn (sRGB), to compare an oklch ring with an rgb background.
  const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
  const rgba = (color: string) => {
    canvas.clearRect(0, 0, 1, 1);
    canvas.fillStyle = color;
    canvas.fillRect(0, 0, 1, 1);
    return Array.from(canvas.getImageData(0, 0, 1, 1).data);
  };
  // Transparent, or the colour of what is behind: nothing a person can see.
  const unseen = (color: string, behind: string) => {
    const [r, g, b, a] = rgba(color);
    const [br, bg, bb] = rgba(behind);
    return a! < 26 || Math.abs(r! - br!) + Math.abs(g! - bg!) + Math.abs(b! - bb!) < 24;
  };
  const clear = (color: string) => rgba(color)[3]! < 26;
  /** The background behind `e`: its nearest ancestor's that is not transparent (else the page's white). */
  const backdrop = (e: Element) => {
    for (let a = e.parentElement; a; a = a.parentElement) {
      const bg = getComputedStyle(a).backgroundColor;
      if (!clear(bg)) return bg;
    }
    return 'rgb(255, 255, 255)';
  };
  const shadowLayers = (shadow: string, behind: string, own: string) =>
    shadow === 'none'
      ? []
      : (shadow.match(/(?:[^,(]|\([^)]*\))+/g) ?? [])
          .map((layer) => layer.trim())
          .filter((layer) => {
            const color = /^(rgba?|oklch|oklab|lab|lch|color|hsla?)\([^)]*\)/.exec(layer)?.[0] ?? '';
            const lengths = layer.replace(color, '').match(/-?[\d.]+px/g) ?? [];
            const inset = layer.includes('inset');
            return !unseen(color, inset && !clear(own) ? own : behind) && lengths.some((l) => parseFloat(l) !== 0);
          });
  const look = () =>
    shown.map((e) => {
      const s = getComputedStyle(e);
      const behind = backdrop(e);
      const outline =
        s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 || unseen(s.outlineColor, behind)
          ? 'none'
          : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`;
      const border = ['top', 'right', 'bottom', 'left']
        .map((side) => {
          const width = s.getPropertyValue(`border-${side}-width`);
          const color = s.getPropertyValue(`border-${side}-color`);
          const style = s.getPropertyValue(`border-${side}-style`);
          return style === 'none' || parseFloat(width) === 0 || clear(color) ? 'none' : `${width} ${style} ${color}`;
        })
        .join(' ');
      const shadow = shadowLayers(s.boxShadow, behind, s.backgroundColor).join(', ') || 'none';
      return [outline, shadow, border, clear(s.backgroundColor) ? 'none' : s.backgroundColor].join(' | ');
    });
  // Transitions (a label's `transition` class) would show a ring half drawn: read the end states.
  const stopTransitions = document.createElement('style');
  stopTransitions.textContent = '*, *::before, *::after { transition: none !important; }';
  document.head.append(stopTransitions);
  const focusVisible = el.matches(':focus-visible');
  const focused = look();
  el.blur();
  const blurred = look();
  el.focus({ preventScroll: true });
  stopTransitions.remove();
  const changed = focused.flatMap((f, i) => (f === blurred[i] ? [] : [`${label(shown[i]!)}: ${blurred[i]} → ${f}`]));
  const changes = changed.length > 0;

  // Covered: at the top or the middle of what shows the element (its label, for a visually hidden input), the
  // topmost element is part of a sticky or fixed bar (wider than half the window) that does not hold the element.
  const own = el.getBoundingClientRect();
  const labelled = [...Array.from((el as HTMLInputElement).labels ?? []), el.nextElementSibling].find(
    (e) => e && !tiny(e.getBoundingClientRect()),
  );
  const box = tiny(own) && labelled ? labelled.getBoundingClientRect() : own;
  const barOf = (hit: Element | null): Element | null => {
    for (let e = hit; e && e !== document.body; e = e.parentElement) {
      const position = getComputedStyle(e).position;
      if (position === 'sticky' || position === 'fixed') {
        const r = e.getBoundingClientRect();
        return r.width >= window.innerWidth / 2 && !e.contains(el) && !e.closest('[data-sonner-toaster]') ? e : null;
      }
    }
    return null;
  };
  let coveredBy: string | null = null;
  const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
  for (const y of [box.top + 2, box.top + box.height / 2]) {
    if (y < 0 || y >= window.innerHeight) continue;
    const bar = barOf(document.elementFromPoint(x, y));
    if (bar) {
      const r = bar.getBoundingClientRect();
      coveredBy = `${label(bar)} (${Math.round(r.top)}–${Math.round(r.bottom)} px; the element ${Math.round(box.top)}–${Math.round(box.bottom)} px)`;
    }
  }
  return { name: label(el), body: false, changes, changed, focusVisible, coveredBy, again };
}

/** The focused element: the keyboard's focus is visible on it and no sticky bar covers it (WCAG 2.4.7, 2.4.11). */
export async function expectFocusShown(page: Page, what = 'the focused element'): Promise<FocusStop> {
  const stop = await page.evaluate(inspectFocus);
  expect(stop.body, `${what}: focus is on <body>`).toBe(false);
  expect(stop.changes, `${what} (${stop.name}) looks the same focused as blurred`).toBe(true);
  expect(stop.coveredBy, `${what} (${stop.name}) is under a sticky bar`).toBeNull();
  return stop;
}

/**
 * A keyboard-only walk of the screen: from the top of the page, Tab through every control until focus leaves the
 * page (or comes back to the first), and at each one check that its focus is visible (it looks different focused
 * than blurred) and that no sticky bar covers it. Fails listing every control that breaks a rule; answers the names
 * of the controls reached, in order, for the test to check that the walk went where it should.
 */
export async function walkScreen(page: Page, screen: string, { limit = 120 } = {}): Promise<string[]> {
  // Start where a keyboard user starts on arriving: at the top, the next Tab on the page's first control (from a
  // stand-in focused at the start of <body>, taken away after that first Tab).
  await page.evaluate(() => {
    delete (window as unknown as { __giftlensWalk?: unknown }).__giftlensWalk;
    delete (window as unknown as { __giftlensWalkLast?: unknown }).__giftlensWalkLast;
    const start = document.createElement('span');
    start.tabIndex = -1;
    start.dataset.walkStart = '';
    document.body.prepend(start);
    start.focus();
    window.scrollTo({ top: 0, behavior: 'instant' });
  });
  const reached: string[] = [];
  const problems: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (i === 0) await page.evaluate(() => document.querySelector('[data-walk-start]')?.remove());
    // Tab within one control (a date's day, month and year) stays on it: go on, without blurring it (which would
    // start it over at its first part).
    const within = await page.evaluate(
      () => document.activeElement === (window as unknown as { __giftlensWalkLast?: Element }).__giftlensWalkLast,
    );
    if (within) continue;
    const stop = await page.evaluate(inspectFocus);
    if (stop.body || stop.again) return report();
    reached.push(stop.name);
    if (!stop.changes) problems.push(`${stop.name}: looks the same focused as blurred`);
    if (!stop.focusVisible) problems.push(`${stop.name}: reached by Tab but not :focus-visible`);
    if (stop.coveredBy) problems.push(`${stop.name}: under ${stop.coveredBy}`);
  }
  problems.push(`focus did not leave the page after ${limit} Tab presses`);
  return report();

  function report() {
    expect(problems, `keyboard walk of ${screen}: ${reached.length} controls reached`).toEqual([]);
    expect(reached.length, `keyboard walk of ${screen}: some control is reached`).toBeGreaterThan(0);
    return reached;
  }
}
